// The customer's two ways to close an alert by hand (supabase/migrations/*_automatic_remediation.sql):
// mark a recommendation implemented (with automatic remediation on, the agents then verify it with a
// rescan; off, that closes it) and resolve an open security event. Both are owner-only database functions;
// the tables themselves stay written by the agents alone.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

/** The alert was closed meanwhile (by an agent's rescan, or in another session): nothing is left to do. */
export class AlertNoLongerOpen extends Error {
  constructor() {
    super('This alert is no longer open: a scan or another session has closed it.');
  }
}

// The functions' refusals for an alert that is gone or no longer open (PT404 not found, 22023 not open).
const closeError = (error: { code?: string; message: string }): Error =>
  error.code === 'PT404' || error.code === '22023' ? new AlertNoLongerOpen() : new Error(error.message);

/** Returns the recommendation's new status: 'in_progress' (being verified) or 'completed'. */
export async function markRecommendationImplemented(id: string): Promise<string> {
  const { data, error } = await (
    await supabase()
  ).rpc('mark_recommendation_implemented', { p_recommendation: id });
  if (error) {
    throw closeError(error);
  }
  return data;
}

export async function resolveSecurityEvent(id: string): Promise<void> {
  const { error } = await (await supabase()).rpc('resolve_security_event', { p_event: id });
  if (error) {
    throw closeError(error);
  }
}

export function useCloseAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: 'recommendation' | 'event'; id: string }) =>
      kind === 'recommendation'
        ? markRecommendationImplemented(id)
        : resolveSecurityEvent(id).then(() => 'resolved'),
    // After a refusal too: the lists may be the stale ones.
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
