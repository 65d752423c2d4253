import { randomUUID } from 'node:crypto';
import { REALTIME_SUBSCRIBE_STATES, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import type { RunningStack } from '../../server/stack.ts';
import { client } from './stack.ts';

/** A table of the tests' own, with RLS by owner, in publication supabase_realtime. */
export async function createFixtureTable(stack: RunningStack, name: string, extra = ''): Promise<void> {
  await stack.ctx.db.exec(`
    create table public.${name} (
      id bigint generated always as identity primary key,
      user_id uuid not null default auth.uid(),
      title text,
      n int,
      done boolean not null default false
    );
    alter table public.${name} enable row level security;
    create policy ${name}_own on public.${name} for all to authenticated
      using (user_id = auth.uid()) with check (user_id = auth.uid());
    grant all on public.${name} to anon, authenticated, service_role;
    alter publication supabase_realtime add table public.${name};
    ${extra}
    select realtime.refresh_capture_triggers();
  `);
}

export interface TestUser {
  id: string;
  token: string;
}

export async function mintUser(stack: RunningStack, expiresIn = 3600): Promise<TestUser> {
  const id = randomUUID();
  const token = await stack.ctx.keys.sign(
    { sub: id, role: 'authenticated', aud: 'authenticated', session_id: randomUUID(), aal: 'aal1', amr: [] },
    expiresIn,
  );
  return { id, token };
}

/** supabase-js signed in as `user` for realtime (anon without one). */
export function realtimeClient(
  stack: RunningStack,
  user?: TestUser,
  key: 'anon' | 'service_role' = 'anon',
): SupabaseClient {
  const sb = client(stack, key);
  if (user) {
    void sb.realtime.setAuth(user.token);
  }
  return sb;
}

export function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) {
        resolve(channel);
      } else if (
        status === REALTIME_SUBSCRIBE_STATES.CHANNEL_ERROR ||
        status === REALTIME_SUBSCRIBE_STATES.TIMED_OUT
      ) {
        reject(new Error(`${status}: ${err?.message ?? ''}`));
      }
    });
  });
}

export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
