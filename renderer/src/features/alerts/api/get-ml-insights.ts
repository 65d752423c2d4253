// ml_insights: newest first, limit 5 (docs/product.md §7, §9).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { LIST_LIMITS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

export async function getMlInsights(userId: string) {
  const { data, error } = await (
    await supabase()
  )
    .from('ml_insights')
    .select('id, title, description, insight_type, confidence_score, data, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .limit(LIST_LIMITS.insights);
  if (error) {
    throw error;
  }
  return data;
}
export type MlInsight = Awaited<ReturnType<typeof getMlInsights>>[number];

export const mlInsightsQuery = (userId: string) =>
  queryOptions({ queryKey: alertKeys.insights(userId), queryFn: () => getMlInsights(userId) });

export function useMlInsights(userId: string) {
  return useQuery(mlInsightsQuery(userId));
}
