// The dashboard home's alert figures, read from findings under row-level security: open findings by
// severity and findings first seen per day over the trend window. Under the 'alerts' key prefix, so a
// change of findings refreshes it with the alert pages.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { countBySeverity, dailyTrend, trendStart } from '../lib/summarize.ts';

// Enough rows for any real account; counts above it are shown as at least this many.
const ROW_LIMIT = 1000;

export async function getFindingSummary(userId: string, now = new Date()) {
  const client = await supabase();
  const [open, recent] = await Promise.all([
    client.from('findings').select('severity').eq('user_id', userId).eq('status', 'open').limit(ROW_LIMIT),
    client
      .from('findings')
      .select('first_seen')
      .eq('user_id', userId)
      .gte('first_seen', trendStart(now).toISOString())
      .limit(ROW_LIMIT),
  ]);
  if (open.error) {
    throw open.error;
  }
  if (recent.error) {
    throw recent.error;
  }
  return {
    open: countBySeverity(open.data),
    trend: dailyTrend(
      recent.data.map((r) => r.first_seen),
      now,
    ),
  };
}
export type FindingSummary = Awaited<ReturnType<typeof getFindingSummary>>;

export const findingSummaryQuery = (userId: string) =>
  queryOptions({
    queryKey: ['alerts', 'summary', userId] as const,
    queryFn: () => getFindingSummary(userId),
  });

export function useFindingSummary(userId: string | undefined) {
  return useQuery({ ...findingSummaryQuery(userId ?? ''), enabled: Boolean(userId) });
}
