import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('refuses requests past the limit until the window resets', () => {
    const rl = new RateLimiter();
    expect(rl.hit('ip', 2, 60, 0)).toBe(true);
    expect(rl.hit('ip', 2, 60, 1)).toBe(true);
    expect(rl.hit('ip', 2, 60, 2)).toBe(false);
    expect(rl.hit('other', 2, 60, 2)).toBe(true);
    expect(rl.hit('ip', 2, 60, 60_001)).toBe(true);
  });

  it('spaces e-mails per kind and address, case-insensitively', () => {
    const rl = new RateLimiter();
    expect(rl.emailWait('recovery', 'A@b.c', 60, 0)).toBe(0);
    expect(rl.emailWait('recovery', 'a@B.c', 60, 1_000)).toBe(59);
    expect(rl.emailWait('signup', 'a@b.c', 60, 1_000)).toBe(0);
    expect(rl.emailWait('recovery', 'a@b.c', 60, 60_000)).toBe(0);
  });
});
