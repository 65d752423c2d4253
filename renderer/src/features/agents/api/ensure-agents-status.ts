// ai_agents_status (docs/product.md §4): a user with no rows gets one inactive row per agent type.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { AGENT_TYPES } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { agentKeys } from './keys.ts';

export interface AgentStatusRow {
  agent_type: string;
  is_active: boolean;
}

export async function ensureAgentsStatus(userId: string): Promise<AgentStatusRow[]> {
  const client = await supabase();
  const { data, error } = await client
    .from('ai_agents_status')
    .select('agent_type, is_active')
    .eq('user_id', userId);
  if (error) {
    throw error;
  }
  const rows = (data ?? []) as AgentStatusRow[];
  const have = new Set(rows.map((r) => r.agent_type));
  const missing = AGENT_TYPES.filter((type) => !have.has(type));
  if (missing.length === 0) {
    return rows;
  }
  // Two tabs may do this at once: existing rows are left as they are (unique user_id, agent_type).
  const { data: added, error: insertError } = await client
    .from('ai_agents_status')
    .upsert(
      missing.map((agent_type) => ({ user_id: userId, agent_type, is_active: false })),
      {
        onConflict: 'user_id,agent_type',
        ignoreDuplicates: true,
      },
    )
    .select('agent_type, is_active');
  if (insertError) {
    throw insertError;
  }
  return [...rows, ...((added ?? []) as AgentStatusRow[])];
}

export const agentsStatusQuery = (userId: string) =>
  queryOptions({
    queryKey: agentKeys.status(userId),
    queryFn: () => ensureAgentsStatus(userId),
    staleTime: 60_000,
  });

export function useAgentsStatus(userId: string | undefined) {
  return useQuery({ ...agentsStatusQuery(userId ?? ''), enabled: Boolean(userId) });
}
