// ai_security_recommendations: status pending, newest first, limit 5 (docs/product.md §7, §9).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { LIST_LIMITS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

export async function getRecommendations(userId: string) {
  const { data, error } = await (
    await supabase()
  )
    .from('ai_security_recommendations')
    .select('id, title, description, priority, category, status, steps, finding_id, resolution, created_at')
    .eq('user_id', userId)
    .eq('status', 'pending')
    .order('created_at', { ascending: false })
    .limit(LIST_LIMITS.recommendations);
  if (error) {
    throw error;
  }
  return data;
}
export type Recommendation = Awaited<ReturnType<typeof getRecommendations>>[number];

export const recommendationsQuery = (userId: string) =>
  queryOptions({ queryKey: alertKeys.recommendations(userId), queryFn: () => getRecommendations(userId) });

export function useRecommendations(userId: string) {
  return useQuery(recommendationsQuery(userId));
}
