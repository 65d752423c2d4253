import { describe, expect, it } from 'vitest';

import { loadStretch, maxStretch, stretched, stretchFor } from './load-stretch.ts';

describe('deadlines stretched by the host load', () => {
  it('keeps them on a host with a core to spare, stretches them with the load per core, within a cap', () => {
    expect(stretchFor(0, 2)).toBe(1);
    expect(stretchFor(1.9, 2)).toBe(1);
    expect(stretchFor(5, 2)).toBe(2.5);
    expect(stretchFor(14, 2)).toBe(maxStretch);
    expect(stretchFor(3, 0)).toBe(3);
  });

  it('says what a cut waited for', () => {
    expect(stretched(10_000, 1)).toEqual({ ms: 10_000, words: '10000 ms' });
    expect(stretched(10_000, 2.5)).toEqual({
      ms: 25_000,
      words: '10000 ms (25000 ms on this host, 2.5× for its load)',
    });
  });

  it('reads this host', () => {
    const now = loadStretch();
    expect(now).toBeGreaterThanOrEqual(1);
    expect(now).toBeLessThanOrEqual(maxStretch);
  });
});
