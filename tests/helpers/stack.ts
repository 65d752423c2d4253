import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { UNLIMITED_RATE_LIMITS } from '../../server/auth/settings.ts';
import { startStack, type RunningStack } from '../../server/stack.ts';

/**
 * An in-memory stack on a random loopback port, for integration tests; on the PostgreSQL server that
 * scripts/test-postgres.sh starts (VIGIL_TEST_DATABASE_URL) for the suites it runs there.
 */
export function startTestStack(overrides: Parameters<typeof startStack>[0] = {}): Promise<RunningStack> {
  return startStack({
    port: 0,
    dataDir: 'memory',
    databaseUrl: process.env.VIGIL_TEST_DATABASE_URL || undefined,
    smtpUrl: undefined,
    // Suites sign in hundreds of times from one address; integration/auth/rate-limits.test.ts keeps the real limits.
    auth: { rateLimits: UNLIMITED_RATE_LIMITS },
    ...overrides,
  });
}

/** The unmodified supabase-js, as the renderer and workers use it (Node 20 needs the ws transport). */
export function client(stack: RunningStack, key: 'anon' | 'service_role' = 'anon') {
  return createClient(stack.url, key === 'anon' ? stack.status.anon_key : stack.status.service_role_key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: 'pkce' },
    realtime: { transport: WebSocket as never },
  });
}
