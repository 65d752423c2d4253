// The customer's two ways to close an alert by hand (supabase/migrations/*_automatic_remediation.sql):
// mark a recommendation implemented (with automatic remediation on, the agents then verify it with a
// rescan; off, that closes it) and resolve an open security event. Both are owner-only database functions;
// the tables themselves stay written by the agents alone.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

/** Returns the recommendation's new status: 'in_progress' (being verified) or 'completed'. */
export async function markRecommendationImplemented(id: string): Promise<string> {
  const { data, error } = await (
    await supabase()
  ).rpc('mark_recommendation_implemented', { p_recommendation: id });
  if (error) {
    throw new Error(error.message);
  }
  return data;
}

export async function resolveSecurityEvent(id: string): Promise<void> {
  const { error } = await (await supabase()).rpc('resolve_security_event', { p_event: id });
  if (error) {
    throw new Error(error.message);
  }
}

export function useCloseAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: 'recommendation' | 'event'; id: string }) =>
      kind === 'recommendation'
        ? markRecommendationImplemented(id)
        : resolveSecurityEvent(id).then(() => 'resolved'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
