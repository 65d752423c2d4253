import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import {
  checkout,
  completeLocalCheckout,
  freshTestCard,
  errorOf,
  ROLE,
  rowsOf,
  signedInCustomer,
} from '../../helpers/billing-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('create-checkout-session refuses', () => {
  it('visitors, with the product message', async () => {
    const { error } = await checkout(client(stack), { roleIds: [ROLE.analyst], userId: crypto.randomUUID() });
    expect(await errorOf(error)).toMatchObject({
      status: 401,
      body: { error: 'You must be logged in to activate security agents' },
    });
  });

  it("a checkout in another user's name", async () => {
    const alice = await signedInCustomer(stack, 'alice');
    const bob = await signedInCustomer(stack, 'bob');
    const { error } = await checkout(bob.supabase, { roleIds: [ROLE.analyst], userId: alice.id });
    expect((await errorOf(error)).status).toBe(403);
    expect((await rowsOf(stack, alice.id)).roles).toEqual([]);
  });

  it('an empty, unknown, malformed or duplicated selection', async () => {
    const c = await signedInCustomer(stack, 'picky');
    const empty = await errorOf((await checkout(c.supabase, { roleIds: [], userId: c.id })).error);
    expect(empty).toMatchObject({
      status: 400,
      body: { error: 'No agents selected: Please select at least one agent to proceed' },
    });
    const unknown = await errorOf(
      (await checkout(c.supabase, { roleIds: [crypto.randomUUID()], userId: c.id })).error,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/unknown security agent/i);
    const malformed = await errorOf(
      (await checkout(c.supabase, { roleIds: ["1' or '1'='1"], userId: c.id })).error,
    );
    expect(malformed.status).toBe(400);
    const dup = await errorOf(
      (await checkout(c.supabase, { roleIds: [ROLE.analyst, ROLE.analyst.toUpperCase()], userId: c.id }))
        .error,
    );
    expect(dup.status).toBe(400);
    const count = await stack.ctx.db.query(`select 1 from public.checkout_sessions where user_id = $1`, [
      c.id,
    ]);
    expect(count.rows).toHaveLength(0);
  });
});

describe('local checkout', () => {
  it('prices on the server, shows the order and starts a 7-day trial through the webhook', async () => {
    const c = await signedInCustomer(stack, 'buyer');
    // Client-side prices in the body are not part of the contract and change nothing.
    const { data, error } = await checkout(c.supabase, {
      roleIds: [ROLE.analyst, ROLE.pentester, ROLE.forensics],
      userId: c.id,
      total: 1,
    });
    expect(error).toBeNull();
    const url = new URL(data!.url);
    expect(url.origin).toBe(stack.url);
    expect(url.pathname).toMatch(/^\/_checkout\/[0-9a-f-]{36}$/);

    const page = await fetch(url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    for (const text of [
      'Cybersecurity Analyst',
      '$299/month',
      'Penetration Tester',
      '$399/month',
      '$449/month',
      'Bundle discount (15%)',
      '−$172',
      '$975/month',
      '7-day free trial',
      'Cancel anytime',
      'Local test checkout',
    ]) {
      expect(html).toContain(text);
    }

    const done = await completeLocalCheckout(url.href);
    expect(done.status).toBe(303);
    const success = new URL(done.headers.get('location')!);
    expect(success.pathname).toBe('/dashboard');
    expect(success.searchParams.get('success')).toBe('true');
    expect(success.searchParams.get('session_id')).toBe(url.pathname.split('/').pop());

    const { subscription, roles } = await rowsOf(stack, c.id);
    expect(subscription).toMatchObject({
      status: 'trialing',
      cancel_at_period_end: false,
      monthly_amount: 97495,
    });
    const trialDays = (new Date(subscription!.trial_ends_at!).getTime() - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(6.99);
    expect(trialDays).toBeLessThanOrEqual(7);
    expect(roles).toEqual([
      { agent_role_id: ROLE.analyst, status: 'trialing' },
      { agent_role_id: ROLE.pentester, status: 'trialing' },
      { agent_role_id: ROLE.forensics, status: 'trialing' },
    ]);
    // The customer reads their own rows through RLS.
    const own = await c.supabase
      .from('user_agent_subscriptions')
      .select('agent_role_id, status')
      .eq('user_id', c.id);
    expect(own.data).toHaveLength(3);

    // A second submission of the completed session changes nothing.
    const again = await completeLocalCheckout(url.href).catch((e: Error) => e);
    expect(again).toBeInstanceOf(Error);
    const page2 = await fetch(url);
    expect(page2.status).toBe(409);
    expect(await page2.text()).toContain('Checkout already completed');

    // Roles already trialing cannot be bought again.
    const twice = await errorOf(
      (await checkout(c.supabase, { roleIds: [ROLE.responder, ROLE.analyst], userId: c.id })).error,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.error).toContain('Cybersecurity Analyst');
  });

  it('refuses a completion without the form token, a declined or real card, and unknown or expired sessions', async () => {
    const c = await signedInCustomer(stack, 'careful');
    const { data } = await checkout(c.supabase, { roleIds: [ROLE.intel], userId: c.id });
    const url = data!.url;
    const forged = await fetch(`${url}/complete`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ token: 'x'.repeat(64), card: '4242424242424242' }),
    });
    expect(forged.status).toBe(403);
    const crossSite = await fetch(`${url}/complete`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Origin: 'https://evil.example' },
      body: new URLSearchParams({ token: 'x', card: '4242424242424242' }),
    });
    expect(crossSite.status).toBe(403);
    expect((await completeLocalCheckout(url, '4000 0000 0000 0002')).status).toBe(402);
    const real = await completeLocalCheckout(url, '4111 1111 1111 1111');
    expect(real.status).toBe(402);
    expect(await real.text()).toContain('Only test cards are accepted');
    expect((await rowsOf(stack, c.id)).roles).toEqual([]);

    expect((await fetch(`${stack.url}/_checkout/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${stack.url}/_checkout/not-a-uuid`)).status).toBe(404);
    await stack.ctx.db.query(
      `update public.checkout_sessions set expires_at = now() - interval '1 minute' where user_id = $1`,
      [c.id],
    );
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('Checkout expired');
    expect(await completeLocalCheckout(url).catch(() => null)).toBeNull();
    expect((await rowsOf(stack, c.id)).roles).toEqual([]);
  });

  it('refuses a completion posted after the session expired, with the token its page gave before', async () => {
    const c = await signedInCustomer(stack, 'late');
    const { data } = await checkout(c.supabase, { roleIds: [ROLE.intel], userId: c.id });
    const url = data!.url;
    // The buyer opened the page in time and sends the form after the session has expired.
    const page = await (await fetch(url)).text();
    const token = page.match(/name="token" value="([0-9a-f]+)"/)![1]!;
    await stack.ctx.db.query(
      `update public.checkout_sessions set expires_at = now() - interval '1 minute' where user_id = $1`,
      [c.id],
    );
    const late = await fetch(`${url}/complete`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ token, card: freshTestCard() }),
    });
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('Checkout expired');
    expect((await rowsOf(stack, c.id)).roles).toEqual([]);
    const { rows } = await stack.ctx.db.query<{ status: string }>(
      'select status from public.checkout_sessions where user_id = $1',
      [c.id],
    );
    expect(rows).toEqual([{ status: 'open' }]);
  });

  it('completes a session once when the form is sent twice at the same time', async () => {
    const c = await signedInCustomer(stack, 'double');
    const { data } = await checkout(c.supabase, { roleIds: [ROLE.responder], userId: c.id });
    const html = await (await fetch(data!.url)).text();
    const token = html.match(/name="token" value="([0-9a-f]+)"/)![1]!;
    const card = freshTestCard();
    const send = () =>
      fetch(`${data!.url}/complete`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ token, card }),
      });
    const statuses = (await Promise.all([send(), send()])).map((r) => r.status).sort();
    expect(statuses).toEqual([303, 409]);
    const events = await stack.ctx.db.query(
      `select 1 from public.billing_events e where e.type = 'checkout.session.completed' and e.outcome = 'applied'
      and exists (select 1 from public.subscriptions s where s.user_id = $1)`,
      [c.id],
    );
    expect(events.rows.length).toBeGreaterThan(0);
    expect((await rowsOf(stack, c.id)).roles).toEqual([
      { agent_role_id: ROLE.responder, status: 'trialing' },
    ]);
  });

  it('sends the buyer back only to allowed origins', async () => {
    const c = await signedInCustomer(stack, 'origin');
    const evil = await checkout(
      c.supabase,
      { roleIds: [ROLE.intel], userId: c.id },
      { Origin: 'https://evil.example' },
    );
    const local = await checkout(
      c.supabase,
      { roleIds: [ROLE.intel], userId: c.id },
      { Origin: 'http://localhost:5173' },
    );
    const rows = await stack.ctx.db.query<{ success_url: string; cancel_url: string }>(
      `select success_url, cancel_url from public.checkout_sessions where id = any($1::uuid[]) order by created_at`,
      [[evil.data!.url, local.data!.url].map((u) => u.split('/').pop())],
    );
    const urls = rows.rows.map((r) => r.success_url);
    expect(urls).toContain(`${stack.url}/dashboard?session_id={CHECKOUT_SESSION_ID}&success=true`);
    expect(urls).toContain('http://localhost:5173/dashboard?session_id={CHECKOUT_SESSION_ID}&success=true');
    expect(rows.rows.map((r) => r.cancel_url)).toContain(`${stack.url}/dashboard/select-roles`);
  });
});
