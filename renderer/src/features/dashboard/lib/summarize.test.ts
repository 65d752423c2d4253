import { describe, expect, it } from 'vitest';

import { countBySeverity, dailyTrend, trendStart } from './summarize.ts';

describe('countBySeverity', () => {
  it('counts each known severity and ignores unknown ones', () => {
    const rows = ['critical', 'high', 'high', 'low', 'bogus', ''].map((severity) => ({ severity }));
    expect(countBySeverity(rows)).toEqual({ critical: 1, high: 2, medium: 0, low: 1, info: 0 });
  });

  it('is all zeros for no rows', () => {
    expect(countBySeverity([])).toEqual({ critical: 0, high: 0, medium: 0, low: 0, info: 0 });
  });
});

describe('dailyTrend', () => {
  const now = new Date(2026, 2, 10, 15, 30);

  it('has one bar per day, oldest first, ending today', () => {
    const trend = dailyTrend([], now, 3);
    expect(trend.map((t) => t.day)).toEqual(['2026-03-08', '2026-03-09', '2026-03-10']);
    expect(trend.every((t) => t.count === 0)).toBe(true);
  });

  it('counts by local day and drops rows outside the window or unreadable', () => {
    const seen = [
      new Date(2026, 2, 10, 0, 5).toISOString(),
      new Date(2026, 2, 10, 23, 59).toISOString(),
      new Date(2026, 2, 8, 12).toISOString(),
      new Date(2026, 2, 7, 23, 59).toISOString(),
      'not a date',
    ];
    expect(dailyTrend(seen, now, 3).map((t) => t.count)).toEqual([1, 0, 2]);
  });

  it('starts the window at local midnight', () => {
    expect(trendStart(now, 3)).toEqual(new Date(2026, 2, 8));
  });
});
