// Creates the supabase-js client from the validated runtime config. Loaded as its own chunk (see
// supabase.ts) so the first paint of public pages does not wait for supabase-js and zod.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import type { Database } from '../../../shared/database.types.ts';
import { loadRuntimeConfig } from '../config/runtime-config.ts';

export async function createSupabaseClient(): Promise<SupabaseClient<Database>> {
  const config = await loadRuntimeConfig();
  return createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      flowType: 'pkce',
      // /auth/callback exchanges the code itself, so it can show progress and errors.
      detectSessionInUrl: false,
      autoRefreshToken: true,
      persistSession: true,
    },
  });
}
