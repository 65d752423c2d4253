// security_events: status open, newest first, limit 10 (docs/product.md §7, §9).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { LIST_LIMITS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

export async function getSecurityEvents(userId: string) {
  const { data, error } = await (
    await supabase()
  )
    .from('security_events')
    .select('id, event_type, description, severity, status, created_at, finding_id')
    .eq('user_id', userId)
    .eq('status', 'open')
    .order('created_at', { ascending: false })
    .limit(LIST_LIMITS.securityEvents);
  if (error) {
    throw error;
  }
  return data;
}
export type SecurityEvent = Awaited<ReturnType<typeof getSecurityEvents>>[number];

export const securityEventsQuery = (userId: string) =>
  queryOptions({ queryKey: alertKeys.events(userId), queryFn: () => getSecurityEvents(userId) });

export function useSecurityEvents(userId: string) {
  return useQuery(securityEventsQuery(userId));
}
