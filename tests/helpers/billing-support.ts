import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { SUCCEEDING_TEST_CARDS } from '../../server/checkout/test-card.ts';
import type { RunningStack } from '../../server/stack.ts';
import { localWebhookSecret } from '../../supabase/functions/_shared/stripe.ts';
import { localEvent, signPayload } from '../../supabase/functions/_shared/local-stripe.ts';

/** Shared by checkout*, webhook* and billing* suites. The seeded catalogue's fixed role ids (supabase/seed.sql). */
export const ROLE = {
  analyst: 'a9e1c0de-0001-4000-8000-000000000001',
  pentester: 'a9e1c0de-0002-4000-8000-000000000002',
  responder: 'a9e1c0de-0003-4000-8000-000000000003',
  forensics: 'a9e1c0de-0004-4000-8000-000000000004',
  intel: 'a9e1c0de-0005-4000-8000-000000000005',
} as const;

export interface Customer {
  id: string;
  email: string;
  token: string;
  supabase: SupabaseClient;
}

/** A user row, a session and an access token as /auth/v1 mints them, and supabase-js acting as them. */
export async function signedInCustomer(stack: RunningStack, tag: string): Promise<Customer> {
  const email = `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const { rows } = await stack.ctx.db.query<{ id: string }>(
    `insert into auth.users (email, email_confirmed_at) values ($1, now()) returning id`,
    [email],
  );
  const id = rows[0]!.id;
  const sessionId = crypto.randomUUID();
  await stack.ctx.db.query(`insert into auth.sessions (id, user_id) values ($1, $2)`, [sessionId, id]);
  const token = await stack.ctx.keys.sign(
    {
      sub: id,
      role: 'authenticated',
      aud: 'authenticated',
      email,
      session_id: sessionId,
      aal: 'aal1',
      amr: [],
    },
    3600,
  );
  const supabase = createClient(stack.url, stack.status.anon_key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: WebSocket as never },
  });
  return { id, email, token, supabase };
}

/** An invoke's error as status and JSON body. */
export async function errorOf(
  error: unknown,
): Promise<{ status: number; body: { error: string; details?: unknown } }> {
  if (!(error instanceof FunctionsHttpError)) {
    throw new Error(`expected a FunctionsHttpError, got ${String(error)}`);
  }
  const res = error.context as Response;
  return { status: res.status, body: (await res.json()) as { error: string; details?: unknown } };
}

export async function checkout(
  supabase: SupabaseClient,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ data: { url: string } | null; error: unknown }> {
  const { data, error } = (await supabase.functions.invoke('create-checkout-session', {
    body: body as Record<string, unknown>,
    headers,
  })) as { data: { url: string } | null; error: unknown };
  return { data, error };
}

let cardsUsed = 0;
/**
 * Another of Stripe's succeeding test cards on each call: every card gets one free trial (docs/product.md §14), so
 * each buyer of a suite pays with a card of their own unless a test names one.
 */
export const freshTestCard = (): string => SUCCEEDING_TEST_CARDS[cardsUsed++ % SUCCEEDING_TEST_CARDS.length]!;

/** Opens the local checkout page and submits its form with `card`, like a browser (no redirect followed). */
export async function completeLocalCheckout(url: string, card: string = freshTestCard()): Promise<Response> {
  const page = await fetch(url);
  const html = await page.text();
  const token = html.match(/name="token" value="([0-9a-f]+)"/)?.[1];
  if (!token) {
    throw new Error(`no form token on ${url} (status ${page.status})`);
  }
  return fetch(`${url}/complete`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ token, card }),
  });
}

/** Signs an event with the stack's local webhook secret and POSTs it to stripe-webhook. */
export async function sendEvent(stack: RunningStack, event: object, secret?: string): Promise<Response> {
  const payload = JSON.stringify(event);
  const signature = await signPayload(
    payload,
    secret ?? (await localWebhookSecret(stack.ctx.keys.serviceRoleKey)),
  );
  return fetch(`${stack.url}/functions/v1/stripe-webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  });
}

export { localEvent };

export async function rowsOf(stack: RunningStack, userId: string) {
  const sub = await stack.ctx.db.query<{
    status: string;
    trial_ends_at: Date | string | null;
    cancel_at_period_end: boolean;
    provider_subscription_id: string;
    provider_customer_id: string | null;
    monthly_amount: number | null;
  }>(`select * from public.subscriptions where user_id = $1`, [userId]);
  const roles = await stack.ctx.db.query<{ agent_role_id: string; status: string }>(
    `select agent_role_id, status from public.user_agent_subscriptions where user_id = $1 order by agent_role_id`,
    [userId],
  );
  return { subscription: sub.rows[0] ?? null, roles: roles.rows };
}
