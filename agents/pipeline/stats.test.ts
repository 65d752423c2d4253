import { describe, expect, it } from 'vitest';
import { ewma, normalCdf, welchZ } from './stats.ts';

describe('stats', () => {
  it('normalCdf matches known quantiles', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 4);
  });
  it('ewma of a constant series has that mean and no variance', () => {
    expect(ewma([4, 4, 4, 4])).toEqual({ mean: 4, variance: 0 });
  });
  it('ewma follows a level shift and reports spread', () => {
    const { mean, variance } = ewma([1, 2, 1, 2, 1, 2]);
    expect(mean).toBeGreaterThan(1);
    expect(mean).toBeLessThan(2);
    expect(variance).toBeGreaterThan(0);
  });
  it('welchZ is positive when the first sample is larger and 0 without spread', () => {
    expect(welchZ([10, 11, 12, 13], [1, 2, 3, 2])).toBeGreaterThan(3);
    expect(welchZ([1, 1], [1, 1])).toBe(0);
  });
});
