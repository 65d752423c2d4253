// The service-role supabase-js client every agent process uses: the worker, the scheduler and the
// notifier talk to the backend only through it (docs/architecture.md §1), whether the backend is the embedded
// stack or hosted Supabase. Node 20 has no global WebSocket, so realtime gets the ws transport.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { z } from 'zod';
import type { Database } from '../../shared/database.types.ts';

export type ServiceClient = SupabaseClient<Database>;

const ServiceEnv = z.object({
  SUPABASE_URL: z.url({ protocol: /^https?$/ }),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(20),
});

export function createServiceClient(url: string, serviceRoleKey: string): ServiceClient {
  return createClient<Database>(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

/** The client from SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY; a missing value is a deployment fault. */
export function serviceClientFromEnv(env: Record<string, string | undefined> = process.env): ServiceClient {
  const parsed = ServiceEnv.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `agents need SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY: ${z.prettifyError(parsed.error)}`,
    );
  }
  return createServiceClient(parsed.data.SUPABASE_URL, parsed.data.SUPABASE_SERVICE_ROLE_KEY);
}
