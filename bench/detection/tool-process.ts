// Runs a reference tool as a child process with a time limit, and reports its output and wall-clock time.
import { spawn } from 'node:child_process';

export interface ProcessRun {
  stdout: string;
  stderr: string;
  code: number | null;
  ms: number;
  timedOut: boolean;
}

export function runTool(
  command: string,
  args: string[],
  { timeoutMs = 600_000, env }: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Guard: a tool that hangs must not hold the whole benchmark.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, ms: performance.now() - started, timedOut });
    });
  });
}
