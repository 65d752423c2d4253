import { describe, expect, it } from 'vitest';

import { RateLimiter } from './rate-limiter.ts';

describe('RateLimiter', () => {
  it('allows up to the limit and then throws with the key', () => {
    let now = Date.UTC(2025, 0, 1, 12);
    const limiter = new RateLimiter({ maxRequests: 3, windowMs: 60_000, now: () => now });
    limiter.check('auth');
    limiter.check('auth');
    limiter.check('auth');
    expect(limiter.remaining('auth')).toBe(0);
    expect(() => limiter.check('auth')).toThrow('Rate limit exceeded for auth');
    expect(() => limiter.check('other')).not.toThrow();
    now += 60_000;
    expect(() => limiter.check('auth')).not.toThrow();
  });
  it('keeps a sliding window', () => {
    let now = Date.UTC(2025, 0, 1, 12);
    const limiter = new RateLimiter({ maxRequests: 2, windowMs: 1_000, now: () => now });
    limiter.check('k');
    now += 600;
    limiter.check('k');
    now += 500;
    expect(() => limiter.check('k')).not.toThrow();
    expect(() => limiter.check('k')).toThrow();
  });
  it('starts a new count on a new day', () => {
    let now = Date.UTC(2025, 0, 1, 23, 59, 59);
    const limiter = new RateLimiter({ maxRequests: 1, windowMs: 60_000, now: () => now });
    limiter.check('k');
    now += 2_000;
    expect(() => limiter.check('k')).not.toThrow();
  });
  it('defaults to 100 per minute and clears', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    for (let i = 0; i < 100; i += 1) {
      limiter.check('k');
    }
    expect(() => limiter.check('k')).toThrow('Rate limit exceeded for k');
    limiter.clear();
    expect(limiter.remaining('k')).toBe(100);
  });
});
