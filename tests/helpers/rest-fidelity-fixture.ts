import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { reloadSchemaCache } from '../../server/rest/schema-cache.ts';
import type { RunningStack } from '../../server/stack.ts';
import { startRestStack } from './rest-fixture.ts';

/**
 * The REST fidelity suites' schema (tests/fixtures/stack/rest-fidelity.sql) on a stack of their own: PGlite in
 * memory, or the PostgreSQL 15 database of scripts/test-postgres.sh. The expectations in these suites are
 * PostgREST's (its documentation and its own spec tests, v12/v13), not read off our implementation.
 */
export const FIDELITY_SQL = readFileSync(
  path.resolve(import.meta.dirname, '../fixtures/stack/rest-fidelity.sql'),
  'utf8',
);

/** Exposes `schemas` and switches PostgREST's in-database settings, then reloads (NOTIFY pgrst). */
export async function configure(
  stack: RunningStack,
  settings: { schemas?: string; aggregates?: boolean; plan?: boolean; maxRows?: number },
): Promise<void> {
  const set = (name: string, value: string | undefined) =>
    value === undefined
      ? `alter role authenticator reset pgrst.${name};`
      : `alter role authenticator set pgrst.${name} = '${value}';`;
  await stack.ctx.db.exec(
    set('db_schemas', settings.schemas) +
      set(
        'db_aggregates_enabled',
        settings.aggregates === undefined ? undefined : String(settings.aggregates),
      ) +
      set('db_plan_enabled', settings.plan === undefined ? undefined : String(settings.plan)) +
      set('db_max_rows', settings.maxRows === undefined ? undefined : String(settings.maxRows)),
  );
  await reloadSchemaCache(stack.ctx.db);
}

export async function startFidelityStack(): Promise<RunningStack> {
  const stack = await startRestStack();
  await stack.ctx.db.exec(FIDELITY_SQL);
  await configure(stack, {});
  return stack;
}

/**
 * Resets PostgREST's in-database settings and closes the stack: on PostgreSQL the suites share one database,
 * so a setting a suite turned on (aggregates, plans, schemas) must not reach the next suite.
 */
export async function stopFidelityStack(stack: RunningStack | undefined): Promise<void> {
  // A stack that failed to start has nothing to reset (the start's own error is the one to see).
  if (!stack) {
    return;
  }
  try {
    await configure(stack, {});
  } finally {
    await stack.close();
  }
}

/** The unmodified supabase-js with a key (service_role reads everything; anon goes through RLS). */
export function keyClient(stack: RunningStack, key: 'anon' | 'service_role' = 'anon'): SupabaseClient {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fixture has no generated types
  return createClient<any>(
    stack.url,
    key === 'anon' ? stack.status.anon_key : stack.status.service_role_key,
    {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    },
  );
}

/** A raw request to /rest/v1 with the anon key, for what supabase-js does not expose (headers, bytes). */
export function rest(stack: RunningStack, pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('apikey', stack.status.anon_key);
  if (!headers.has('authorization')) {
    headers.set('authorization', `Bearer ${stack.status.anon_key}`);
  }
  return fetch(`${stack.url}/rest/v1/${pathAndQuery}`, { ...init, headers });
}
