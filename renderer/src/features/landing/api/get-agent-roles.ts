// agent_roles for the landing page: all rows, falling back silently to the seven built-in roles when the
// call fails or returns nothing (SPEC points 7 and 8).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { type AgentRole, DEFAULT_AGENT_ROLES } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';

export async function getLandingAgentRoles(): Promise<{ roles: AgentRole[]; fallback: boolean }> {
  try {
    const { data, error } = await (await supabase()).from('agent_roles').select('*').order('price_monthly');
    if (error) {
      throw error;
    }
    const { parseAgentRoles } = await import('./parse-agent-roles.ts');
    const roles = parseAgentRoles(data);
    return roles.length > 0
      ? { roles, fallback: false }
      : { roles: [...DEFAULT_AGENT_ROLES], fallback: true };
  } catch (error) {
    // A role fetch failure must not hide the catalogue from visitors: use the built-in list instead.
    console.warn('agent_roles unavailable, showing the built-in roles', error);
    return { roles: [...DEFAULT_AGENT_ROLES], fallback: true };
  }
}

export const landingAgentRolesQuery = queryOptions({
  queryKey: ['agent-roles', 'landing'],
  queryFn: getLandingAgentRoles,
  staleTime: 5 * 60_000,
});

export function useLandingAgentRoles() {
  return useQuery(landingAgentRolesQuery);
}
