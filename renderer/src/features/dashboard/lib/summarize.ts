// The dashboard home's summary from the customer's rows: open findings by severity and new findings per
// day (oldest day first), counted in the viewer's time zone.
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const TREND_DAYS = 14;

export interface TrendDay {
  /** yyyy-mm-dd, local time. */
  day: string;
  count: number;
}

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function countBySeverity(rows: readonly { severity: string }[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const { severity } of rows) {
    // Guards against a severity the page has no place for: it is not counted rather than mislabelled.
    if ((SEVERITIES as readonly string[]).includes(severity)) {
      counts[severity as Severity] += 1;
    }
  }
  return counts;
}

/** The first local midnight of the trend window ending today. */
export function trendStart(now: Date, days = TREND_DAYS): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
}

export function dailyTrend(firstSeen: readonly string[], now: Date, days = TREND_DAYS): TrendDay[] {
  const start = trendStart(now, days);
  const trend = Array.from({ length: days }, (_, i) => ({
    day: localDay(new Date(start.getFullYear(), start.getMonth(), start.getDate() + i)),
    count: 0,
  }));
  const index = new Map(trend.map((t, i) => [t.day, i]));
  for (const value of firstSeen) {
    const bar = trend[index.get(localDay(new Date(value))) ?? -1];
    // Guards against rows outside the window (or an unreadable date): they belong to no bar.
    if (bar) {
      bar.count += 1;
    }
  }
  return trend;
}
