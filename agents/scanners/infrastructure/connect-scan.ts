// TCP connect scan of one address. A long sweep (a full 65,535-port sweep, say) is shared between
// worker threads: on loopback or a LAN each attempt costs ~30 µs of CPU, nearly all of it in the kernel's
// connect and close, so one event loop is CPU-bound at ~2 s per full sweep while other cores idle. The
// threads take ports from one shared list (sweep-threads.ts); the calling thread sweeps too, from the
// start, so a thread's start-up (~0.15 s) costs nothing but its share. Each thread sweeps as
// connect-sweep.ts describes.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Worker } from 'node:worker_threads';

import { startModuleWorker } from '../../lib/module-worker.ts';
import { moduleEntry } from '../../../shared/module-entry.ts';
import { hasFastPath } from './connect-probe.ts';
import { listSource, sweepPorts, type SweepOptions, type SweepResult } from './connect-sweep.ts';
import {
  ABORT_MESSAGE,
  sharedSource,
  sharePorts,
  type ThreadMessage,
  type ThreadTask,
} from './sweep-threads.ts';

export interface ConnectScanOptions {
  address: string;
  ports: readonly number[];
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Connections in flight at once, over all threads. */
  concurrency?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** 'auto' (default) uses the fast tcp_wrap path when available. */
  engine?: 'auto' | 'net.Socket';
  /** Threads to sweep with; by default one per core (at most 4) for long sweeps, else one. */
  threads?: number;
}

/** The sweeps' results together (rttMs is the slowest thread's). */
export interface ConnectScanResult extends SweepResult {
  /** How many threads swept (a thread that could not start leaves its share to the others). */
  threads: number;
}

const THREAD = moduleEntry(import.meta.url, './connect-scan-thread.ts', 'connect-scan-thread');

const DEFAULT_CONCURRENCY = 1000;
/** Descriptors left for everything else the process does while it scans. */
const RESERVED_FDS = 256;
const MAX_THREADS = 4;
/** Below this many ports per thread, a thread's start-up costs more than its share saves. */
const MIN_PORTS_PER_THREAD = 8192;

/** The soft limit on open files (Linux /proc), so the sweep does not start by hitting EMFILE. */
function openFileLimit(): number {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : Infinity;
  } catch {
    return Infinity;
  }
}

function threadCount(options: ConnectScanOptions): number {
  if (options.signal?.aborted) {
    return 1;
  }
  if (options.threads !== undefined) {
    return Math.max(1, Math.min(MAX_THREADS, Math.floor(options.threads)));
  }
  // Worker threads use the fast path only; the net.Socket engine stays on this thread.
  if (options.engine === 'net.Socket' || !hasFastPath()) {
    return 1;
  }
  const byLength = Math.floor(options.ports.length / MIN_PORTS_PER_THREAD);
  return Math.max(1, Math.min(MAX_THREADS, os.availableParallelism(), byLength));
}

export async function connectScan(options: ConnectScanOptions): Promise<ConnectScanResult> {
  const total = options.ports.length;
  const threads = threadCount(options);
  // Descriptors are per process: the threads share the budget.
  const budget = Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, openFileLimit() - RESERVED_FDS);
  const sweep: Omit<SweepOptions, 'ports' | 'onDone'> = {
    address: options.address,
    concurrency: Math.max(32, Math.floor(budget / threads)),
    minTimeoutMs: options.minTimeoutMs,
    maxTimeoutMs: options.maxTimeoutMs,
    engine: options.engine,
  };
  if (threads === 1) {
    const result = await sweepPorts({
      ...sweep,
      ports: listSource(options.ports),
      signal: options.signal,
      onDone: (done) => options.onProgress?.(done, total),
    });
    options.onProgress?.(total, total);
    return { ...result, threads: 1 };
  }
  const shared = sharePorts(options.ports);
  const doneBy = new Array<number>(threads).fill(0);
  const progress = (thread: number) => (done: number) => {
    doneBy[thread] = done;
    options.onProgress?.(
      doneBy.reduce((a, b) => a + b, 0),
      total,
    );
  };
  // Stops every thread: on the caller's abort, or when a thread fails mid-sweep.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const task: ThreadTask = { ...sweep, shared };
  const helpers = Array.from({ length: threads - 1 }, (_, i) =>
    runThread(task, signal, progress(i + 1)).catch((e: unknown) => {
      stop.abort();
      throw e;
    }),
  );
  const own = sweepPorts({ ...sweep, ports: sharedSource(shared), signal, onDone: progress(0) });
  const settled = await Promise.allSettled([own, ...helpers]);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    throw failed.reason;
  }
  const results = settled.flatMap((s) => (s.status === 'fulfilled' && s.value ? [s.value] : []));
  options.onProgress?.(total, total);
  return {
    open: [...new Set(results.flatMap((r) => r.open))].sort((a, b) => a - b),
    attempts: results.reduce((n, r) => n + r.attempts, 0),
    retried: results.reduce((n, r) => n + r.retried, 0),
    rttMs: Math.max(...results.map((r) => r.rttMs)),
    timeoutMs: Math.max(...results.map((r) => r.timeoutMs)),
    engine: results[0]!.engine,
    threads: results.length,
  };
}

/**
 * One helper thread's sweep. Null when the thread never started sweeping (it could not load, say): it
 * took no port, so the other threads cover its share. A failure after it started loses ports, so the
 * scan fails.
 */
function runThread(
  task: ThreadTask,
  signal: AbortSignal,
  onDone: (done: number) => void,
): Promise<SweepResult | null> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = startModuleWorker(THREAD, task);
    } catch {
      resolve(null);
      return;
    }
    let started = false;
    let settled = false;
    const abort = () => worker.postMessage(ABORT_MESSAGE);
    signal.addEventListener('abort', abort, { once: true });
    const settle = (outcome: () => void) => {
      if (!settled) {
        settled = true;
        signal.removeEventListener('abort', abort);
        outcome();
      }
    };
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'started') {
        started = true;
      } else if (message.type === 'done') {
        onDone(message.done);
      } else {
        settle(() => resolve(message.result));
        void worker.terminate();
      }
    });
    const failed = (error: Error) => settle(() => (started ? reject(error) : resolve(null)));
    worker.on('error', failed);
    worker.on('exit', (code) =>
      failed(new Error(`a scan thread exited with code ${code} before it finished`)),
    );
  });
}
