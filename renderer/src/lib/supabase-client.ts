// Creates the supabase-js client from the validated runtime config. Loaded as its own chunk (see
// supabase.ts) so the first paint of public pages does not wait for supabase-js and zod.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import type { Database } from '../../../shared/database.types.ts';
import { runtimeConfigFrom } from '../config/runtime-config.ts';
import { platform } from './platform/index.ts';
import { followSecondFactor } from './realtime-token.ts';

// The desktop app gets its config from the main process; the web build fetches /config.json (once).
const runtimeConfig = () => runtimeConfigFrom(platform);

export async function createSupabaseClient(): Promise<SupabaseClient<Database>> {
  const config = await runtimeConfig();
  const client = createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      flowType: 'pkce',
      // /auth/callback exchanges the code itself, so it can show progress and errors.
      detectSessionInUrl: false,
      autoRefreshToken: true,
      persistSession: true,
      // Desktop: the session and PKCE verifier live in the main process's encrypted vault, not localStorage.
      ...(platform.authStorage ? { storage: platform.authStorage } : {}),
    },
  });
  followSecondFactor(client);
  return client;
}

/**
 * A REST-only client whose requests outlive the page (fetch keepalive), for the metrics flush at unload.
 * It never touches the session: the caller supplies the access token.
 */
export async function createKeepaliveClient(
  accessToken: () => Promise<string | null>,
): Promise<SupabaseClient<Database>> {
  const config = await runtimeConfig();
  return createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    accessToken,
    global: { fetch: (input, init) => fetch(input, { ...init, keepalive: true }) },
  });
}
