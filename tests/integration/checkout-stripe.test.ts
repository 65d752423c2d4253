import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../server/stack.ts';
import { nowSeconds } from '../../supabase/functions/_shared/local-stripe.ts';
import { startTestStack } from '../helpers/stack.ts';
import { checkout, localEvent, ROLE, rowsOf, sendEvent, signedInCustomer } from './billing-support.ts';

/**
 * The Stripe branch against a stand-in Stripe API on 127.0.0.1 (no internet in tests): the SDK is
 * pointed at it with STRIPE_API_BASE. The stand-in records what the SDK sent and answers like Stripe.
 */
interface Call {
  method: string;
  path: string;
  body: URLSearchParams;
  auth: string;
}
const calls: Call[] = [];
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
  if (method === 'GET' && path.startsWith('/v1/subscriptions/')) {
    const sub = subscriptions.get(path.split('/').pop()!);
    return sub
      ? [200, sub]
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
        body: new URLSearchParams(raw),
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
});
