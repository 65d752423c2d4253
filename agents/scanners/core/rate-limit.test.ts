import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';
import { ScanStoppedError } from './scan-stopped.ts';

/** Most requests started within any window of `windowMs`. */
function peak(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) {
      j++;
    }
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('RateLimiter', () => {
  it('spaces concurrent callers so no window of 1 s holds more than the rate', async () => {
    const limiter = new RateLimiter(20);
    const times: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        await limiter.acquire();
        times.push(performance.now());
      }),
    );
    expect(peak(times, 1000)).toBeLessThanOrEqual(20);
    // 30 slots 50 ms apart: the last one no earlier than 29 × 50 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(29 * 50);
  });

  it('allows fractional rates (a share of a target limit)', async () => {
    const limiter = new RateLimiter(4.5);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      await limiter.acquire();
      times.push(performance.now());
    }
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual((2 * 1000) / 4.5);
  });

  it('ends a wait at once when the scan is stopped', async () => {
    const limiter = new RateLimiter(1);
    const controller = new AbortController();
    await limiter.acquire(controller.signal);
    const waiting = limiter.acquire(controller.signal);
    const t0 = performance.now();
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toBeInstanceOf(ScanStoppedError);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('refuses a rate that is not a positive number', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RateLimiter(bad)).toThrow(RangeError);
    }
  });
});
