// One thread's part of a TCP connect scan (connect-scan.ts shares a long sweep between threads).
// Timeouts adapt to the measured round-trip time (TCP's SRTT + 4·RTTVAR estimator, clamped), so a
// loopback or LAN sweep does not wait a WAN's worth on each filtered port; ports that time out are
// retried once with the settled timeout; running out of file descriptors or source ports slows the
// sweep down instead of failing it. One deadline sweep serves every attempt (no timer per socket), and
// an abort cancels everything in flight at once.
import { createProber } from './connect-probe.ts';
import type { Attempt, Outcome } from './connect-probe.ts';

/** Where a sweep takes its ports from: a list of its own, or a queue shared with other threads. */
export interface PortSource {
  /** The next port to try, or undefined when none is left. */
  next(): number | undefined;
}

export function listSource(ports: readonly number[]): PortSource {
  let at = 0;
  return { next: () => ports[at++] };
}

export interface SweepOptions {
  address: string;
  ports: PortSource;
  signal?: AbortSignal;
  /** Called with how many ports this sweep has finished, every 256 ports and at the end. */
  onDone?: (done: number) => void;
  /** Connections in flight at once (already within the process's descriptor budget). */
  concurrency: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** 'auto' uses the fast tcp_wrap path when available. */
  engine?: 'auto' | 'net.Socket';
}

export interface SweepResult {
  open: number[];
  /** Connection attempts: each port once, plus `retried`. */
  attempts: number;
  /** Attempts made again: ports that timed out (tried once more), ports started when descriptors ran out. */
  retried: number;
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

/** How often deadlines are checked. */
const SWEEP_MS = 25;

/**
 * Tries every port `options.ports` yields, `options.concurrency` at a time, on this thread's event loop.
 * Ports that time out are tried once more at the end, with the settled timeout.
 */
export async function sweepPorts(options: SweepOptions): Promise<SweepResult> {
  const rtt = new RttEstimator(options.minTimeoutMs ?? 250, options.maxTimeoutMs ?? 2000);
  const open: number[] = [];
  let attempts = 0;
  let retried = 0;
  let done = 0;
  let concurrency = options.concurrency;
  const signal = options.signal;

  // Per-pass state, read by the one shared outcome handler below.
  let source = options.ports;
  let exhausted = false;
  /** Ports to start again in this pass: descriptors had run out when they were started. */
  let requeued: number[] = [];
  let retryTimeouts = true;
  let timedOut: number[] = [];
  const inFlight = new Set<Attempt>();
  let wake: (() => void) | null = null;

  const nextPort = (): number | undefined => {
    const port = requeued.pop() ?? (exhausted ? undefined : source.next());
    exhausted ||= port === undefined;
    return port;
  };

  const record = (port: number, outcome: Outcome) => {
    if (outcome === 'busy') {
      concurrency = Math.max(32, Math.floor(concurrency / 2));
      requeued.push(port);
      retried += 1;
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
      options.onDone?.(done);
    }
  };

  const pump = () => {
    const now = performance.now();
    const deadline = now + rtt.timeout;
    while (inFlight.size < concurrency && !signal?.aborted) {
      const port = nextPort();
      if (port === undefined) {
        break;
      }
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
    if (inFlight.size === 0 && ((exhausted && requeued.length === 0) || signal?.aborted)) {
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

  const pass = async (ports: PortSource, retry: boolean): Promise<number[]> => {
    source = ports;
    exhausted = false;
    requeued = [];
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
    const retryPorts = await pass(options.ports, true);
    // Retry once: a port can time out while the estimator was still settling or the host was busy.
    if (retryPorts.length > 0 && !signal?.aborted) {
      retried += retryPorts.length;
      await pass(listSource(retryPorts), false);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  options.onDone?.(done);
  return {
    open: [...new Set(open)].sort((a, b) => a - b),
    attempts,
    retried,
    rttMs: rtt.rtt,
    timeoutMs: rtt.timeout,
    engine: prober.kind,
  };
}
