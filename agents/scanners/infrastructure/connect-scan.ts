// TCP connect scan. Timeouts adapt to the measured round-trip time (TCP's SRTT + 4·RTTVAR estimator,
// clamped), so a loopback or LAN sweep does not wait a WAN's worth on each filtered port; ports that time
// out are retried once with the settled timeout; running out of file descriptors slows the scan down
// instead of failing it.
import net from 'node:net';

export interface ConnectScanOptions {
  address: string;
  ports: readonly number[];
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  concurrency?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
}

export interface ConnectScanResult {
  open: number[];
  attempts: number;
  /** Smoothed round-trip time of connection attempts, in milliseconds. */
  rttMs: number;
  timeoutMs: number;
}

type Outcome = 'open' | 'closed' | 'timeout' | 'busy';

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
    return this.srtt === null ? this.max : Math.min(this.max, Math.max(this.min, this.srtt + 4 * this.rttvar));
  }
}

interface InFlight {
  socket: net.Socket;
  deadline: number;
  finish: (outcome: Outcome) => void;
}

/**
 * Starts one connection attempt; calls `finish` exactly once. Callbacks rather than a promise per port,
 * and one shared deadline sweep rather than a timer per socket: a full sweep makes 65535 of these.
 */
function attempt(address: string, port: number, deadline: number, rtt: RttEstimator, inFlight: Set<InFlight>, finish: (outcome: Outcome) => void): void {
  const started = performance.now();
  const socket = net.connect({ host: address, port });
  const entry: InFlight = {
    socket,
    deadline,
    finish: (outcome) => {
      if (inFlight.delete(entry)) {
        socket.destroy();
        finish(outcome);
      }
    },
  };
  inFlight.add(entry);
  socket.once('connect', () => {
    // Guard: on loopback the kernel may pick the target port as our own source port and connect the
    // socket to itself ("simultaneous open"); that is no listening service.
    if (socket.localPort === port && socket.localAddress === socket.remoteAddress) {
      entry.finish('closed');
      return;
    }
    rtt.sample(performance.now() - started);
    entry.finish('open');
  });
  socket.once('error', (error: NodeJS.ErrnoException) => {
    // Guard: descriptor exhaustion says nothing about the port; the caller retries it later.
    if (error.code === 'EMFILE' || error.code === 'ENFILE' || error.code === 'EADDRNOTAVAIL') {
      entry.finish('busy');
      return;
    }
    if (error.code === 'ECONNREFUSED') {
      rtt.sample(performance.now() - started);
    }
    entry.finish('closed');
  });
}

export async function connectScan(options: ConnectScanOptions): Promise<ConnectScanResult> {
  const rtt = new RttEstimator(options.minTimeoutMs ?? 250, options.maxTimeoutMs ?? 2000);
  const open: number[] = [];
  let attempts = 0;
  let done = 0;
  let concurrency = options.concurrency ?? 1000;
  const total = options.ports.length;
  const sweep = async (ports: readonly number[], retryTimeouts: boolean): Promise<number[]> => {
    const queue = [...ports];
    const timedOut: number[] = [];
    let active = 0;
    const inFlight = new Set<InFlight>();
    const sweeper = setInterval(() => {
      const now = performance.now();
      for (const entry of inFlight) {
        if (entry.deadline <= now || options.signal?.aborted) {
          entry.finish('timeout');
        }
      }
    }, 25);
    await new Promise<void>((resolve) => {
      const pump = () => {
        if (options.signal?.aborted) {
          queue.length = 0;
        }
        while (active < concurrency && queue.length > 0) {
          const port = queue.shift()!;
          active += 1;
          attempts += 1;
          attempt(options.address, port, performance.now() + rtt.timeout, rtt, inFlight, (outcome) => {
            active -= 1;
            if (outcome === 'busy') {
              concurrency = Math.max(32, Math.floor(concurrency / 2));
              queue.push(port);
            } else {
              if (outcome === 'open') {
                open.push(port);
              } else if (outcome === 'timeout' && retryTimeouts) {
                timedOut.push(port);
              }
              if (!retryTimeouts || outcome !== 'timeout') {
                done += 1;
              }
              if (done % 256 === 0 || done === total) {
                options.onProgress?.(done, total);
              }
            }
            pump();
          });
        }
        if (active === 0 && queue.length === 0) {
          resolve();
        }
      };
      pump();
    });
    clearInterval(sweeper);
    return timedOut;
  };
  const timedOut = await sweep(options.ports, true);
  // Retry once: a port can time out while the estimator was still settling or the host was busy.
  if (timedOut.length > 0 && !options.signal?.aborted) {
    await sweep(timedOut, false);
  }
  options.onProgress?.(total, total);
  return { open: [...new Set(open)].sort((a, b) => a - b), attempts, rttMs: rtt.rtt, timeoutMs: rtt.timeout };
}
