// `npm start` as a user runs it, for the start, memory and stop benchmarks: the real command (npm, its
// shell, the built product), timed from the moment the command is run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { anyAlive, processTree } from './processes.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface StartedProduct {
  npm: ChildProcess;
  url: string;
  /** performance.now() when the command was run. */
  startedAt: number;
  /** From running the command to the first 200 from /health. */
  readyMs: number;
  output(): string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `npm start` with `env` (VIGIL_PORT among it) and waits until /health answers 200. */
export async function npmStart(env: Record<string, string>, timeoutMs = 120_000): Promise<StartedProduct> {
  const port = env.VIGIL_PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const started = performance.now();
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    // CI: no desktop app is launched (none can be here, and it is not what is measured).
    env: { ...process.env, CI: '1', ...env, VIGIL_PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  npm.stdout.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr.on('data', (d: Buffer) => (output += d.toString()));
  while (performance.now() - started < timeoutMs) {
    if (npm.exitCode !== null) {
      throw new Error(`npm start exited (code ${npm.exitCode}):\n${output.slice(-2000)}`);
    }
    const ok = await fetch(`${url}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) {
      return { npm, url, startedAt: started, readyMs: performance.now() - started, output: () => output };
    }
    await sleep(20);
  }
  npm.kill('SIGKILL');
  throw new Error(`npm start did not answer /health within ${timeoutMs} ms:\n${output.slice(-2000)}`);
}

/**
 * Sends `signal` to the npm process, as a supervisor does, and waits until every process it ran is gone;
 * answers how long that took (or null when some were still running after `giveUpMs`: they are killed).
 */
export async function stopProduct(
  product: StartedProduct,
  signal: NodeJS.Signals = 'SIGTERM',
  giveUpMs = 15_000,
): Promise<number | null> {
  const tree = await processTree(product.npm.pid!);
  const started = performance.now();
  product.npm.kill(signal);
  while (performance.now() - started < giveUpMs) {
    if (!(await anyAlive(tree))) {
      return performance.now() - started;
    }
    await sleep(25);
  }
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Guard: already gone.
    }
  }
  return null;
}
