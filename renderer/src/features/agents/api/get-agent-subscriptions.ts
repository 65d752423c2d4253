// user_agent_subscriptions of the signed-in user (docs/product.md §7); active and trialing count as activated.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { agentKeys } from './keys.ts';

export interface AgentSubscription {
  agent_role_id: string;
  status: string;
}

export const isActivated = (status: string) => status === 'active' || status === 'trialing';

export async function getAgentSubscriptions(userId: string): Promise<AgentSubscription[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('user_agent_subscriptions')
    .select('agent_role_id, status')
    .eq('user_id', userId);
  if (error) {
    throw error;
  }
  return data ?? [];
}

export const agentSubscriptionsQuery = (userId: string) =>
  queryOptions({ queryKey: agentKeys.subscriptions(userId), queryFn: () => getAgentSubscriptions(userId) });

/** Only when logged in (docs/product.md §7): without a user the query stays idle. */
export function useAgentSubscriptions(userId: string | undefined) {
  return useQuery({ ...agentSubscriptionsQuery(userId ?? ''), enabled: Boolean(userId) });
}

/** The ids of the user's activated roles. */
export function activatedRoleIds(subscriptions: readonly AgentSubscription[] | undefined): Set<string> {
  return new Set((subscriptions ?? []).filter((s) => isActivated(s.status)).map((s) => s.agent_role_id));
}
