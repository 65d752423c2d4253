// Bars of new findings per day; the figures are also in the image's accessible name.
import type { TrendDay } from '../lib/summarize.ts';

export function TrendChart({ trend }: { trend: readonly TrendDay[] }) {
  const max = Math.max(1, ...trend.map((t) => t.count));
  const total = trend.reduce((sum, t) => sum + t.count, 0);
  const label = `${total} new findings in ${trend.length} days: ${trend.map((t) => `${t.day} ${t.count}`).join(', ')}`;
  return (
    <div role="img" aria-label={label} className="flex h-16 items-end gap-1">
      {trend.map((t) => (
        <div
          key={t.day}
          title={`${t.day}: ${t.count}`}
          className="flex-1 rounded-sm bg-primary"
          // The one computed style: the bar's height in proportion to the busiest day (min 2 px).
          style={{ height: `max(2px, ${(t.count / max) * 100}%)` }}
        />
      ))}
    </div>
  );
}
