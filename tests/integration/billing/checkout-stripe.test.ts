import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { nowSeconds } from '../../../supabase/functions/_shared/local-stripe.ts';
import { startTestStack } from '../../helpers/stack.ts';
import {
  checkout,
  localEvent,
  ROLE,
  rowsOf,
  sendEvent,
  signedInCustomer,
} from '../../helpers/billing-support.ts';

/**
 * The Stripe branch against a stand-in Stripe API on 127.0.0.1 (no internet in tests): the SDK is
 * pointed at it with STRIPE_API_BASE. The stand-in records what the SDK sent and answers like Stripe.
 */
interface Call {
  method: string;
  path: string;
  /** The query string (GET) or the form body (POST), as Stripe's SDK sends parameters. */
  body: URLSearchParams;
  auth: string;
}
const calls: Call[] = [];
const paymentMethods = new Map<string, unknown>();

/** A subscription as Stripe answers it, with default_payment_method expanded when the call asked. */
function expanded(sub: Record<string, unknown>, params: URLSearchParams): Record<string, unknown> {
  const pm = sub.default_payment_method;
  const asked = [...params.entries()].some(
    ([k, v]) => k.startsWith('expand[') && v === 'default_payment_method',
  );
  return asked && typeof pm === 'string'
    ? { ...sub, default_payment_method: paymentMethods.get(pm) ?? pm }
    : sub;
}
const subscriptions = new Map<string, unknown>();
let api: Server;
let stack: RunningStack;
const WEBHOOK_SECRET = 'whsec_test_stub_secret';

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
  });

function answer(call: Call): [number, unknown] {
  const { method, path, body } = call;
  if (method === 'POST' && path === '/v1/customers') {
    return [
      200,
      {
        id: `cus_stub_${calls.filter((c) => c.path === '/v1/customers').length}`,
        object: 'customer',
        email: body.get('email'),
      },
    ];
  }
  if (method === 'GET' && path.startsWith('/v1/coupons/')) {
    const id = path.split('/').pop();
    return calls.some((c) => c.method === 'POST' && c.path === '/v1/coupons' && c.body.get('id') === id)
      ? [200, { id, object: 'coupon' }]
      : [
          404,
          {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such coupon: '${id}'`,
            },
          },
        ];
  }
  if (method === 'POST' && path === '/v1/coupons') {
    return [200, { id: body.get('id'), object: 'coupon', percent_off: Number(body.get('percent_off')) }];
  }
  if (method === 'POST' && path === '/v1/checkout/sessions') {
    return [
      200,
      {
        id: 'cs_test_stub',
        object: 'checkout.session',
        url: 'https://checkout.stripe.com/c/pay/cs_test_stub',
      },
    ];
  }
  if (method === 'POST' && path.startsWith('/v1/subscriptions/')) {
    // Ending a trial now: Stripe invoices the first month and (the test card paying) the subscription is active.
    const id = path.split('/').pop()!;
    const sub = subscriptions.get(id) as Record<string, unknown> | undefined;
    if (!sub || body.get('trial_end') !== 'now') {
      return [400, { error: { type: 'invalid_request_error', message: `stub: update ${id}` } }];
    }
    const updated = { ...sub, status: 'active', trial_end: nowSeconds() };
    subscriptions.set(id, updated);
    return [200, expanded(updated, body)];
  }
  if (method === 'GET' && path.startsWith('/v1/subscriptions/')) {
    const sub = subscriptions.get(path.split('/').pop()!) as Record<string, unknown> | undefined;
    return sub
      ? [200, expanded(sub, body)]
      : [
          404,
          {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: 'No such subscription',
            },
          },
        ];
  }
  return [404, { error: { type: 'invalid_request_error', message: `stub: ${method} ${path}` } }];
}

beforeAll(async () => {
  api = createServer((req, res) => {
    void read(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const call = {
        method: req.method ?? '',
        path: url.pathname,
        body: new URLSearchParams(req.method === 'GET' ? url.search : raw),
        auth: req.headers.authorization ?? '',
      };
      calls.push(call);
      const [status, json] = answer(call);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': 'req_stub' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  process.env.STRIPE_SECRET_KEY = 'sk_test_stub';
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.STRIPE_API_BASE = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  stack = await startTestStack();
});
afterAll(async () => {
  await stack.close();
  api.close();
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.STRIPE_API_BASE;
});

describe('checkout with Stripe configured', () => {
  it('creates a subscription-mode Checkout Session priced on the server, reusing the customer', async () => {
    const c = await signedInCustomer(stack, 'stripe');
    const { data, error } = await checkout(
      c.supabase,
      { roleIds: [ROLE.analyst, ROLE.pentester], userId: c.id },
      { Origin: 'http://localhost:5173' },
    );
    expect(error).toBeNull();
    expect(data).toEqual({ url: 'https://checkout.stripe.com/c/pay/cs_test_stub' });
    const session = calls.find((x) => x.path === '/v1/checkout/sessions')!;
    expect(session.auth).toBe('Bearer sk_test_stub');
    const b = session.body;
    expect(b.get('mode')).toBe('subscription');
    expect(b.get('customer')).toBe('cus_stub_1');
    expect(b.get('line_items[0][price_data][unit_amount]')).toBe('29900');
    expect(b.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    expect(b.get('line_items[1][price_data][unit_amount]')).toBe('39900');
    expect(b.get('discounts[0][coupon]')).toBe('vigil_bundle_10');
    expect(b.get('subscription_data[trial_period_days]')).toBe('7');
    expect(b.get('subscription_data[metadata][user_id]')).toBe(c.id);
    expect(b.get('subscription_data[metadata][role_ids]')).toBe(`${ROLE.analyst},${ROLE.pentester}`);
    expect(b.get('subscription_data[metadata][monthly_amount]')).toBe('62820');
    expect(b.get('success_url')).toBe(
      'http://localhost:5173/dashboard?session_id={CHECKOUT_SESSION_ID}&success=true',
    );
    expect(b.get('cancel_url')).toBe('http://localhost:5173/dashboard/select-roles');
    expect(calls.find((x) => x.method === 'POST' && x.path === '/v1/coupons')?.body.get('percent_off')).toBe(
      '10',
    );

    await checkout(c.supabase, { roleIds: [ROLE.intel], userId: c.id });
    expect(calls.filter((x) => x.path === '/v1/customers')).toHaveLength(1);
    expect(
      calls
        .filter((x) => x.path === '/v1/checkout/sessions')
        .at(-1)!
        .body.has('discounts[0][coupon]'),
    ).toBe(false);
    // The local stand-in is off while a provider is configured.
    expect((await fetch(`${stack.url}/_checkout/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('applies checkout.session.completed by fetching the subscription, verified with STRIPE_WEBHOOK_SECRET', async () => {
    const c = await signedInCustomer(stack, 'completed');
    const trialEnd = nowSeconds() + 7 * 86_400;
    subscriptions.set('sub_stub_1', {
      id: 'sub_stub_1',
      object: 'subscription',
      customer: 'cus_stub_9',
      status: 'trialing',
      trial_end: trialEnd,
      cancel_at_period_end: false,
      items: { object: 'list', data: [{ id: 'si_1', current_period_end: trialEnd }] },
      metadata: { user_id: c.id, role_ids: ROLE.forensics, monthly_amount: '44900' },
    });
    const event = localEvent('checkout.session.completed', {
      id: 'cs_test_stub',
      object: 'checkout.session',
      mode: 'subscription',
      subscription: 'sub_stub_1',
      customer: 'cus_stub_9',
    });
    // The per-stack local secret is not accepted once a real one is configured.
    expect((await sendEvent(stack, event)).status).toBe(400);
    const res = await sendEvent(stack, event, WEBHOOK_SECRET);
    expect(await res.json()).toEqual({ received: true, outcome: 'applied' });
    expect(calls.some((x) => x.method === 'GET' && x.path === '/v1/subscriptions/sub_stub_1')).toBe(true);
    const { subscription, roles } = await rowsOf(stack, c.id);
    expect(subscription).toMatchObject({
      status: 'trialing',
      provider_subscription_id: 'sub_stub_1',
      provider_customer_id: 'cus_stub_9',
    });
    expect(roles).toEqual([{ agent_role_id: ROLE.forensics, status: 'trialing' }]);
  });

  it('offers no trial to a customer who had one: the session asks for the first month now', async () => {
    const c = await signedInCustomer(stack, 'returning');
    await stack.ctx.db.query(`select public.billing_claim_trial($1, 'sub_earlier_trial', null)`, [c.id]);
    const { error } = await checkout(c.supabase, { roleIds: [ROLE.pentester], userId: c.id });
    expect(error).toBeNull();
    const session = calls.filter((x) => x.path === '/v1/checkout/sessions').at(-1)!.body;
    expect(session.has('subscription_data[trial_period_days]')).toBe(false);
    expect(session.get('subscription_data[metadata][user_id]')).toBe(c.id);
  });

  it('ends the trial at Stripe of a subscription paid with a card that already had one', async () => {
    const card = {
      id: 'pm_shared',
      object: 'payment_method',
      card: { fingerprint: 'fpSharedCard0001', last4: '4242' },
    };
    const trialing = (id: string, userId: string) => ({
      id,
      object: 'subscription',
      customer: `cus_${id}`,
      status: 'trialing',
      trial_end: nowSeconds() + 7 * 86_400,
      cancel_at_period_end: false,
      default_payment_method: card,
      items: { object: 'list', data: [{ id: `si_${id}`, current_period_end: nowSeconds() + 7 * 86_400 }] },
      metadata: { user_id: userId, role_ids: ROLE.intel, monthly_amount: '29900' },
    });
    const completed = (id: string) =>
      localEvent('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'subscription',
        subscription: id,
      });

    const first = await signedInCustomer(stack, 'card-first');
    subscriptions.set('sub_card_1', trialing('sub_card_1', first.id));
    expect(await (await sendEvent(stack, completed('sub_card_1'), WEBHOOK_SECRET)).json()).toEqual({
      received: true,
      outcome: 'applied',
    });
    expect((await rowsOf(stack, first.id)).subscription).toMatchObject({ status: 'trialing' });

    // Another account, the same card (Stripe tells us by the fingerprint): no second trial.
    const second = await signedInCustomer(stack, 'card-second');
    paymentMethods.set('pm_shared', card);
    subscriptions.set('sub_card_2', {
      ...trialing('sub_card_2', second.id),
      default_payment_method: 'pm_shared',
    });
    expect(await (await sendEvent(stack, completed('sub_card_2'), WEBHOOK_SECRET)).json()).toEqual({
      received: true,
      outcome: 'applied',
    });
    const retrieve = calls.filter((x) => x.method === 'GET' && x.path === '/v1/subscriptions/sub_card_2');
    expect(retrieve.length).toBeGreaterThan(0);
    const update = calls.find((x) => x.method === 'POST' && x.path === '/v1/subscriptions/sub_card_2');
    expect(update?.body.get('trial_end')).toBe('now');
    const { subscription, roles } = await rowsOf(stack, second.id);
    expect(subscription).toMatchObject({ status: 'active', provider_subscription_id: 'sub_card_2' });
    expect(roles).toEqual([{ agent_role_id: ROLE.intel, status: 'active' }]);
    // The first customer's own later events keep their trial.
    expect(calls.some((x) => x.method === 'POST' && x.path === '/v1/subscriptions/sub_card_1')).toBe(false);
  });
});
