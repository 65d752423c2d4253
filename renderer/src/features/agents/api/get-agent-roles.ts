// agent_roles for the dashboard: all rows, no fallback (docs/product.md §7: only the landing page falls back).
import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';

import { supabase } from '../../../lib/supabase.ts';
import { agentKeys } from './keys.ts';

const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  role_type: z.string(),
  price_monthly: z.number(),
  features: z.nullable(z.array(z.string())),
});

export interface DashboardRole {
  id: string;
  name: string;
  description: string;
  role_type: string;
  /** USD cents */
  price_monthly: number;
  features: string[];
}

export async function getAgentRoles(): Promise<DashboardRole[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('agent_roles')
    .select('id, name, description, role_type, price_monthly, features')
    .order('display_order');
  if (error) {
    throw error;
  }
  // Rows of an unexpected shape are a server fault: fail the query rather than show wrong prices.
  return z
    .array(roleSchema)
    .parse(data)
    .map((r) => ({ ...r, description: r.description ?? '', features: r.features ?? [] }));
}

export const agentRolesQuery = queryOptions({
  queryKey: agentKeys.roles,
  queryFn: getAgentRoles,
  staleTime: 5 * 60_000,
});

export function useAgentRoles() {
  return useQuery(agentRolesQuery);
}
