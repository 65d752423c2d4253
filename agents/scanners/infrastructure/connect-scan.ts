// TCP connect scan. Timeouts adapt to the measured round-trip time (TCP's SRTT + 4·RTTVAR estimator,
// clamped), so a loopback or LAN sweep does not wait a WAN's worth on each filtered port; ports that time
// out are retried once with the settled timeout; running out of file descriptors or source ports slows
// the scan down instead of failing it. One deadline sweep serves every attempt (no timer per socket),
// and an abort cancels everything in flight at once.
import { readFileSync } from 'node:fs';

import { createProber } from './connect-probe.ts';
import type { Attempt, Outcome } from './connect-probe.ts';

export interface ConnectScanOptions {
  address: string;
  ports: readonly number[];
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  concurrency?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** 'auto' (default) uses the fast tcp_wrap path when available. */
  engine?: 'auto' | 'net.Socket';
}

export interface ConnectScanResult {
  open: number[];
  attempts: number;
  /** Smoothed round-trip time of connection attempts, in milliseconds. */
  rttMs: number;
  timeoutMs: number;
  /** Which connection primitive did the work ('tcp_wrap' fast path or 'net.Socket'). */
  engine: string;
}

class RttEstimator {
  private srtt: number | null = null;
  private rttvar = 0;

  constructor(
    private readonly min: number,
    private readonly max: number,
  ) {}

  sample(ms: number): void {
    if (this.srtt === null) {
      this.srtt = ms;
      this.rttvar = ms / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - ms);
    this.srtt = 0.875 * this.srtt + 0.125 * ms;
  }

  get rtt(): number {
    return this.srtt ?? 0;
  }

  get timeout(): number {
    return this.srtt === null
      ? this.max
      : Math.min(this.max, Math.max(this.min, this.srtt + 4 * this.rttvar));
  }
}

/** The soft limit on open files (Linux /proc), so the sweep does not start by hitting EMFILE. */
function openFileLimit(): number {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : Infinity;
  } catch {
    return Infinity;
  }
}

const DEFAULT_CONCURRENCY = 1000;
/** Descriptors left for everything else the process does while it scans. */
const RESERVED_FDS = 256;
/** How often deadlines are checked. */
const SWEEP_MS = 25;

export async function connectScan(options: ConnectScanOptions): Promise<ConnectScanResult> {
  const rtt = new RttEstimator(options.minTimeoutMs ?? 250, options.maxTimeoutMs ?? 2000);
  const total = options.ports.length;
  const open: number[] = [];
  let attempts = 0;
  let done = 0;
  let concurrency = Math.max(
    32,
    Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, openFileLimit() - RESERVED_FDS),
  );
  const signal = options.signal;

  // Per-sweep state, read by the one shared outcome handler below.
  let pending: number[] = [];
  let cursor = 0;
  let retryTimeouts = true;
  let timedOut: number[] = [];
  const inFlight = new Set<Attempt>();
  let wake: (() => void) | null = null;

  const record = (port: number, outcome: Outcome) => {
    if (outcome === 'busy') {
      concurrency = Math.max(32, Math.floor(concurrency / 2));
      pending.push(port);
      return;
    }
    if (outcome === 'open') {
      open.push(port);
    } else if (outcome === 'timeout' && retryTimeouts && !signal?.aborted) {
      timedOut.push(port);
      return;
    }
    done += 1;
    if ((done & 255) === 0) {
      options.onProgress?.(done, total);
    }
  };

  const pump = () => {
    const now = performance.now();
    const deadline = now + rtt.timeout;
    while (inFlight.size < concurrency && cursor < pending.length && !signal?.aborted) {
      const port = pending[cursor++]!;
      attempts += 1;
      const attempt = prober.start(port, now, deadline);
      if (attempt === 'busy') {
        record(port, attempt);
        // Guard: out of descriptors with nothing in flight to free one; try again shortly, not in a tight loop.
        if (inFlight.size === 0) {
          setTimeout(pump, 10);
        }
        break;
      } else if (attempt === 'closed') {
        record(port, attempt);
      } else {
        inFlight.add(attempt);
      }
    }
    if (inFlight.size === 0 && (cursor >= pending.length || signal?.aborted)) {
      wake?.();
    }
  };

  const prober = createProber(
    options.address,
    (attempt, outcome, elapsedMs) => {
      inFlight.delete(attempt);
      if (outcome === 'open' || outcome === 'refused') {
        rtt.sample(elapsedMs);
      }
      record(attempt.port, outcome);
      pump();
    },
    options.engine,
  );

  const sweep = async (ports: readonly number[], retry: boolean): Promise<number[]> => {
    pending = [...ports];
    cursor = 0;
    retryTimeouts = retry;
    timedOut = [];
    let lastTick = performance.now();
    let skipped = false;
    const deadlines = setInterval(() => {
      const now = performance.now();
      const late = now - lastTick > 4 * SWEEP_MS;
      lastTick = now;
      // Guard: after a stall (a busy CPU) timers run before the pending completions are read; give them
      // one loop turn to be read rather than cancelling attempts whose answers are already waiting (one
      // turn only, so a CPU that stays busy cannot keep timeouts from ever firing).
      if (late && !skipped) {
        skipped = true;
        return;
      }
      skipped = false;
      for (const attempt of inFlight) {
        if (attempt.deadline <= now) {
          attempt.cancel();
        }
      }
    }, SWEEP_MS);
    try {
      await new Promise<void>((resolve) => {
        wake = resolve;
        pump();
      });
    } finally {
      clearInterval(deadlines);
      wake = null;
    }
    return timedOut;
  };

  // An abort cancels every attempt in flight now, rather than waiting for their deadlines.
  const onAbort = () => [...inFlight].forEach((attempt) => attempt.cancel());
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const retryPorts = await sweep(options.ports, true);
    // Retry once: a port can time out while the estimator was still settling or the host was busy.
    if (retryPorts.length > 0 && !signal?.aborted) {
      await sweep(retryPorts, false);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  options.onProgress?.(total, total);
  return {
    open: [...new Set(open)].sort((a, b) => a - b),
    attempts,
    rttMs: rtt.rtt,
    timeoutMs: rtt.timeout,
    engine: prober.kind,
  };
}
