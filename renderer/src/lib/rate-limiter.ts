// Client-side rate limiter (docs/product.md §8, §9): at most `maxRequests` per sliding window, counted per key and day.
import { RATE_LIMIT_DEFAULTS } from '../../../shared/constants.ts';

export interface RateLimiterOptions {
  maxRequests?: number;
  windowMs?: number;
  now?: () => number;
}

export class RateLimitError extends Error {
  constructor(key: string) {
    super(`Rate limit exceeded for ${key}`);
    this.name = 'RateLimitError';
  }
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly maxRequests: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: RateLimiterOptions = {}) {
    this.maxRequests = options.maxRequests ?? RATE_LIMIT_DEFAULTS.maxRequests;
    this.windowMs = options.windowMs ?? RATE_LIMIT_DEFAULTS.windowMs;
    this.now = options.now ?? Date.now;
  }

  private dayKey(key: string, at: number): string {
    return `${key}:${new Date(at).toISOString().slice(0, 10)}`;
  }

  /** Records one request for `key`; throws RateLimitError once the window is full. */
  check(key: string): void {
    const at = this.now();
    const bucket = this.dayKey(key, at);
    const recent = (this.hits.get(bucket) ?? []).filter((time) => at - time < this.windowMs);
    // Guards the backend from a runaway client loop: refuse before sending, without recording.
    if (recent.length >= this.maxRequests) {
      this.hits.set(bucket, recent);
      throw new RateLimitError(key);
    }
    recent.push(at);
    this.hits.set(bucket, recent);
  }

  /** Requests left for `key` in the current window. */
  remaining(key: string): number {
    const at = this.now();
    const recent = (this.hits.get(this.dayKey(key, at)) ?? []).filter((time) => at - time < this.windowMs);
    return Math.max(0, this.maxRequests - recent.length);
  }

  /** Forgets all counts (called on auth errors so that a fresh sign-in starts clean). */
  clear(): void {
    this.hits.clear();
  }
}

export const rateLimiter = new RateLimiter();
