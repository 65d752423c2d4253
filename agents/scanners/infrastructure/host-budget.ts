// What service detection may spend on one host, whatever the host does: a host that accepts every port
// (a tarpit, a port-forwarding proxy, a honeypot) would otherwise cost a greeting wait and ten probes per
// port, minutes per hundred ports. docs/scanners/limits.md §3 states these numbers to customers.
import { setMaxListeners } from 'node:events';

export const hostLimits = {
  /** From this many open ports on, the ports' first answers are compared before any port is examined. */
  compareFrom: 32,
  /** Open ports whose first answer is read for that comparison (well-known ones first, then spread). */
  lookedAt: 1024,
  /** Ports answering alike, from this many on, are examined through a sample and reported together. */
  alikeFrom: 32,
  /** Ports of such a group examined in full (identification and every check). */
  sample: 8,
  /** Ports examined in full, at most, however many are open. */
  examined: 256,
  /** Connections service detection and its checks open to the host (besides the libraries' logins). */
  connections: 20_000,
  /** Wall time of service detection and its checks on the host. */
  durationMs: 10 * 60_000,
  /** A scanned list of at least this many ports, open at this share or more, is "every port". */
  everyPortFrom: 256,
  everyPortShare: 0.9,
  /** Ports a finding names when it stands for many (the rest are counted). */
  placesNamed: 24,
} as const;

export type HostLimits = { -readonly [K in keyof typeof hostLimits]: number };

/** Time and connections left for one host; its signal ends every conversation once either runs out. */
export class HostBudget {
  readonly signal: AbortSignal;
  /** Why the budget ended early, or null while it lasts. */
  reason: string | null = null;
  private used = 0;
  private readonly stop = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limits: Pick<HostLimits, 'connections' | 'durationMs'>,
    outer?: AbortSignal,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.stop.signal]) : this.stop.signal;
    // Every conversation with the host listens to this signal: a hundred at once is the design.
    setMaxListeners(0, this.signal);
    this.timer = setTimeout(
      () => this.end(`the per-host time budget of ${Math.round(limits.durationMs / 1000)} s ran out`),
      limits.durationMs,
    );
    this.timer.unref();
  }

  /** Takes `count` connections; false once the budget is spent (and it ends then). */
  take(count = 1): boolean {
    if (this.stop.signal.aborted) {
      return false;
    }
    this.used += count;
    if (this.used > this.limits.connections) {
      this.end(`the per-host budget of ${this.limits.connections} connections ran out`);
      return false;
    }
    return true;
  }

  get connections(): number {
    return this.used;
  }

  get spent(): boolean {
    return this.stop.signal.aborted;
  }

  /** Releases the timer; call once the host is done. */
  dispose(): void {
    clearTimeout(this.timer);
  }

  private end(reason: string): void {
    if (!this.stop.signal.aborted) {
      this.reason = reason;
      this.stop.abort();
    }
  }
}
