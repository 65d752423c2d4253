// Runs a scan in a process of its own, the boundary that keeps a hostile target's damage to one scan:
// - time: the scan stops itself at its time limit; if it has not ended shortly after, it is killed;
// - memory: the process has a V8 heap limit, and the memory of its whole tree (Chromium included) is
//   sampled twice a second; past the cap the scan is stopped, and killed if it does not end at once;
// - crashes: anything that kills the scan process (a library's unhandled error, the heap limit, a crash
//   of Chromium taking it down) ends that scan only, never the worker or the CLI that started it;
// - cancel: a stop reaches the scan at once; whatever the scan is doing, its tree is killed if it has not
//   ended within STOP_GRACE_MS.
// The scan streams each finding as it is made, so a scan ended from outside still reports what it found,
// marked partial with the reason. Costs, measured by `npm run bench`: one Node process per running scan.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { Finding, ScanType } from '../../../shared/findings.ts';
import { compareFindings } from '../../../shared/findings.ts';
import { moduleEntry } from '../../../shared/module-entry.ts';
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { inertText } from '../core/inert-text.ts';
import { formatDuration, scanLimits } from '../core/limits.ts';
import type { ScanLimits } from '../core/limits.ts';
import type { ScanProgress } from '../core/progress.ts';
import { scanStop, stopOf } from '../core/scan-stopped.ts';
import type { ScanStop } from '../core/scan-stopped.ts';
import { TargetRefusedError } from '../target-policy.ts';
import type { FromChild, PortableScanOptions, ToChild } from './messages.ts';
import { ProcessTree } from './process-tree.ts';

/** After a stop is sent, how long the scan may take to hand back its partial result before it is killed. */
export const STOP_GRACE_MS = 1200;
/** Beyond its own time limit, how long a scan may run before it is killed (it stops itself at the limit). */
const DEADLINE_GRACE_MS = 5000;
const SAMPLE_MS = 500;
const STDERR_TAIL = 8192;

export interface IsolatedScanOptions extends Pick<
  ScanOptions,
  | 'target'
  | 'mode'
  | 'ports'
  | 'openapi'
  | 'rateLimit'
  | 'login'
  | 'allowIntrusive'
  | 'signal'
  | 'onProgress'
  | 'onFinding'
> {
  /** false: the HTML crawl only (no browser); absent: a system Chromium when one is installed. */
  render?: false;
  /** Overrides of the type's default limits (settings, CLI). */
  limits?: { timeMs?: number; memoryMb?: number };
  /** Lines the scan process wrote on stderr and its warnings (unhandled rejections it survived). */
  onLog?: (line: string) => void;
}

/** What the isolation measured of the scan's processes, beside the result. */
export interface ScanResources {
  time_limit_ms: number;
  memory_cap_mb: number;
  /** The largest memory of the scan's process tree seen (null where it cannot be measured). */
  peak_memory_mb: number | null;
  /** The most processes the tree held at once (the scan's, Chromium's). */
  peak_processes: number;
}

export type IsolatedScanResult = ScanResult & { resources: ScanResources };

/** How to start the scan process: its own file, plain JavaScript when built, through tsx from source. */
function childEntry(): { path: string; execArgv: string[] } {
  const entry = moduleEntry(import.meta.url, './scan-child.ts', 'scan-child');
  return {
    path: fileURLToPath(entry.url),
    execArgv: entry.typescript ? ['--import', import.meta.resolve('tsx')] : [],
  };
}

export async function runIsolatedScan(
  type: ScanType,
  options: IsolatedScanOptions,
): Promise<IsolatedScanResult> {
  const limits: ScanLimits = scanLimits(type, options.limits);
  const started = Date.now();
  const entry = childEntry();
  const child = fork(entry.path, [], {
    execArgv: [...entry.execArgv, `--max-old-space-size=${limits.heapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // Its own process group: a Ctrl-C at the terminal reaches the CLI, which decides, not the scan.
    detached: process.platform !== 'win32',
  });
  const tree = new ProcessTree(child.pid ?? -1);
  const findings = new Map<string, Finding>();
  const resources: ScanResources = {
    time_limit_ms: limits.timeMs,
    memory_cap_mb: limits.memoryMb,
    peak_memory_mb: null,
    peak_processes: 1,
  };
  // Written from callbacks, so kept in an object (a plain variable would read as never-assigned below).
  const last: { progress: ScanProgress | null } = { progress: null };
  let stopSent: ScanStop | null = null;
  let stderr = '';
  const log = (line: string) => options.onLog?.(inertText(line, 500));

  const outcome = await new Promise<
    | { kind: 'result'; result: ScanResult }
    | { kind: 'error'; error: Error }
    | { kind: 'ended'; detail: string }
  >((resolve) => {
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const timers: NodeJS.Timeout[] = [];
    const finish = (value: Parameters<typeof resolve>[0]) => {
      if (!settled) {
        settled = true;
        timers.forEach(clearTimeout);
        clearTimeout(killTimer);
        clearInterval(sampler);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(value);
      }
    };
    const kill = () => void tree.kill();
    /** Asks the scan to stop (it hands back what it found), and kills it if it has not within `graceMs`. */
    const stop = (why: ScanStop, graceMs: number) => {
      stopSent ??= why;
      send(child, { type: 'stop', stop: why });
      if (!killTimer) {
        killTimer = setTimeout(kill, graceMs);
      }
    };
    const onAbort = () =>
      stop(stopOf(options.signal) ?? scanStop('cancelled', 'stopped by request'), STOP_GRACE_MS);
    if (options.signal?.aborted) {
      onAbort();
    } else {
      options.signal?.addEventListener('abort', onAbort, { once: true });
    }
    timers.push(
      setTimeout(
        () =>
          stop(
            scanStop('deadline', `the scan reached its time limit of ${formatDuration(limits.timeMs)}`),
            STOP_GRACE_MS,
          ),
        limits.timeMs + DEADLINE_GRACE_MS,
      ),
    );
    let sampling: Promise<void> | null = null;
    /** One measure of the scan's process tree: its peak is kept, and over the cap the scan is stopped. */
    const sample = (): Promise<void> => {
      sampling ??= tree
        .memory()
        .then((memory) => {
          if (!memory || settled) {
            return;
          }
          resources.peak_memory_mb = Math.max(resources.peak_memory_mb ?? 0, memory.mb);
          resources.peak_processes = Math.max(resources.peak_processes, memory.processes);
          if (memory.mb > limits.memoryMb) {
            // Memory grows fast (a renderer can take gigabytes in seconds): a short grace only.
            stop(
              scanStop(
                'memory',
                `the scan's processes passed their memory cap of ${limits.memoryMb} MB (${memory.mb} MB)`,
              ),
              500,
            );
          }
        })
        .catch(() => undefined)
        .finally(() => {
          sampling = null;
        });
      return sampling;
    };
    // The first at once, so that a scan over within one interval is measured too.
    void sample();
    const sampler = setInterval(() => void sample(), SAMPLE_MS);

    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    // Guard: the scan process's stdout is not ours to print (the CLI's JSON goes there); kept from filling up.
    child.stdout?.resume();
    child.on('message', (message: FromChild) => {
      switch (message.type) {
        case 'progress':
          last.progress = message.progress;
          options.onProgress?.(message.progress);
          break;
        case 'finding':
          findings.set(`${message.finding.rule_id}\u0000${message.finding.location}`, message.finding);
          options.onFinding?.(message.finding);
          break;
        case 'warning':
          log(message.message);
          break;
        case 'stopping':
          log(`the scan heard the stop (${message.reason}): it starts no new request`);
          break;
        case 'result':
          // The scan process's own peak, as it hands over: a scan that ended before a sample of its tree
          // came back (under half a second) has a peak too.
          resources.peak_memory_mb = Math.max(resources.peak_memory_mb ?? 0, message.peakRssMb);
          finish({ kind: 'result', result: message.result });
          break;
        case 'error':
          finish({
            kind: 'error',
            error:
              message.name === 'TargetRefusedError' && message.target !== undefined
                ? new TargetRefusedError(message.target, message.reason ?? message.message)
                : Object.assign(new Error(message.message), { name: message.name }),
          });
          break;
      }
    });
    child.on('error', (error) =>
      finish({ kind: 'ended', detail: `the scan process could not run: ${error.message}` }),
    );
    child.on('exit', (code, signal) =>
      finish({
        kind: 'ended',
        detail: signal
          ? `the scan process was ended by ${signal}`
          : `the scan process exited with code ${code}`,
      }),
    );
    const portable: PortableScanOptions = {
      target: options.target,
      mode: options.mode,
      ...(options.ports === undefined ? {} : { ports: options.ports }),
      ...(options.openapi === undefined ? {} : { openapi: options.openapi }),
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      ...(options.login === undefined ? {} : { login: options.login }),
      allowIntrusive: options.allowIntrusive === true,
      ...(options.render === false ? { render: false as const } : {}),
      timeLimitMs: limits.timeMs,
    };
    send(child, { type: 'start', scanType: type, options: portable });
    // The root's start time is recorded at once, so a reused process id is never taken for it later.
    void tree.memory();
  });
  // Whatever happened, nothing of the scan outlives it: Chromium and any helper process included.
  await tree.kill();
  stderr.split('\n').filter(Boolean).slice(-20).forEach(log);

  if (outcome.kind === 'result') {
    return { ...outcome.result, resources };
  }
  if (outcome.kind === 'error') {
    throw outcome.error;
  }
  // The scan process ended without its result: what it streamed is the result, with the reason.
  const heapLimit = /heap limit|JavaScript heap out of memory/i.test(stderr);
  const stop: ScanStop =
    stopSent ??
    (heapLimit
      ? scanStop('memory', `the scan process reached its heap limit of ${limits.heapMb} MB`)
      : scanStop('crashed', outcome.detail));
  return {
    target: options.target,
    type,
    findings: [...findings.values()].sort(compareFindings),
    stats: { requests: last.progress?.requests ?? 0, duration_ms: Date.now() - started },
    partial: true,
    stopped: stop,
    phase_errors: last.progress ? [{ phase: last.progress.phase, error: stop.detail }] : [],
    resources,
  };
}

function send(child: ChildProcess, message: ToChild): void {
  if (child.connected) {
    child.send(message, (error) => {
      // Guard: the process may have died between the check and the send; its exit is handled above.
      void error;
    });
  }
}
