/** Fixed-window counters and per-address e-mail spacing, kept in memory per stack (like GoTrue's limiter). */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly lastEmail = new Map<string, number>();

  /** Counts one request under `key`; false when the window's `limit` is already used up. */
  hit(key: string, limit: number, windowSeconds: number, now = Date.now()): boolean {
    this.sweep(now);
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
      return limit >= 1;
    }
    w.count += 1;
    return w.count <= limit;
  }

  /** Seconds the caller must still wait before another `kind` e-mail to `address`; 0 records a send. */
  emailWait(kind: string, address: string, minIntervalSeconds: number, now = Date.now()): number {
    const key = `${kind}:${address.toLowerCase()}`;
    const last = this.lastEmail.get(key);
    if (last !== undefined && now - last < minIntervalSeconds * 1000) {
      return Math.max(1, Math.ceil((last + minIntervalSeconds * 1000 - now) / 1000));
    }
    this.lastEmail.set(key, now);
    return 0;
  }

  // Bounded memory: expired windows are dropped once the map grows.
  private sweep(now: number): void {
    if (this.windows.size < 10_000) {
      return;
    }
    for (const [k, w] of this.windows) {
      if (w.resetAt <= now) {
        this.windows.delete(k);
      }
    }
  }
}
