// The one supabase-js client of the renderer. It is created on first use (config fetched and validated,
// supabase-js loaded), and every caller shares the same promise, so there is never a second client.
import type { SupabaseClient } from '@supabase/supabase-js';

import type { Database } from '../../../shared/database.types.ts';

let client: Promise<SupabaseClient<Database>> | undefined;

export function supabase(): Promise<SupabaseClient<Database>> {
  client ??= import('./supabase-client.ts').then((module) => module.createSupabaseClient());
  return client;
}
