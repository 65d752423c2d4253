// agent_roles for the landing page: all rows, falling back silently to the seven built-in roles when the
// call fails or returns nothing (docs/product.md §7 and §8). Loaded after the page is up (see get-agent-roles.ts):
// a public catalogue read needs only PostgREST (postgrest-js), not the whole supabase-js client.
import { PostgrestClient } from '@supabase/postgrest-js';

import { type AgentRole, DEFAULT_AGENT_ROLES } from '../../../../../shared/constants.ts';
import type { Database } from '../../../../../shared/database.types.ts';
import { runtimeConfigFrom } from '../../../config/runtime-config.ts';
import { platform } from '../../../lib/platform/index.ts';
import { parseAgentRoles } from './parse-agent-roles.ts';

export interface LandingAgentRoles {
  roles: AgentRole[];
  fallback: boolean;
}

async function catalogue(): Promise<unknown> {
  // The desktop gets its config from the main process; the web build fetches /config.json (once a page).
  const config = await runtimeConfigFrom(platform);
  // The anon key as both apikey and bearer: what supabase-js sends for a visitor (docs/reference/common.md §3).
  const rest = new PostgrestClient<Database>(`${config.supabaseUrl}/rest/v1`, {
    headers: { apikey: config.supabaseAnonKey, Authorization: `Bearer ${config.supabaseAnonKey}` },
  });
  const { data, error } = await rest.from('agent_roles').select('*').order('price_monthly');
  if (error) {
    throw error;
  }
  return data;
}

export async function fetchLandingAgentRoles(
  load: () => Promise<unknown> = catalogue,
): Promise<LandingAgentRoles> {
  try {
    const roles = parseAgentRoles(await load());
    return roles.length > 0
      ? { roles, fallback: false }
      : { roles: [...DEFAULT_AGENT_ROLES], fallback: true };
  } catch (error) {
    // A role fetch failure must not hide the catalogue from visitors: use the built-in list instead.
    console.warn('agent_roles unavailable, showing the built-in roles', error);
    return { roles: [...DEFAULT_AGENT_ROLES], fallback: true };
  }
}
