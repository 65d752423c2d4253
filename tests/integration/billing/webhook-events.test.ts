import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import {
  localSubscription,
  nowSeconds,
  signPayload,
} from '../../../supabase/functions/_shared/local-stripe.ts';
import { localWebhookSecret } from '../../../supabase/functions/_shared/stripe.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { localEvent, ROLE, rowsOf, sendEvent, signedInCustomer } from '../../helpers/billing-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const subscriptionFor = (userId: string, over: Partial<Parameters<typeof localSubscription>[0]> = {}) =>
  localSubscription({
    id: `sub_test_${userId.slice(0, 8)}`,
    customer: `cus_test_${userId.slice(0, 8)}`,
    userId,
    roleIds: [ROLE.analyst, ROLE.intel],
    monthlyAmount: 53820,
    status: 'trialing',
    trialEnd: nowSeconds() + 7 * 86_400,
    periodEnd: nowSeconds() + 7 * 86_400,
    cancelAtPeriodEnd: false,
    ...over,
  });

const eventAt = (type: string, object: unknown, created: number) => ({
  ...localEvent(type, object),
  created,
});

describe('stripe-webhook', () => {
  it('refuses unsigned, forged and tampered events and changes nothing', async () => {
    const c = await signedInCustomer(stack, 'forged');
    const event = localEvent('customer.subscription.created', subscriptionFor(c.id, { status: 'active' }));
    const unsigned = await fetch(`${stack.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect((await sendEvent(stack, event, 'whsec_attacker_guess')).status).toBe(400);
    // A valid signature over one body does not carry over to another (the tampered status).
    const signature = await signPayload(
      JSON.stringify(event),
      await localWebhookSecret(stack.ctx.keys.serviceRoleKey),
    );
    const tampered = JSON.stringify({
      ...event,
      data: { object: { ...event.data.object, status: 'trialing' } },
    });
    const swapped = await fetch(`${stack.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { 'Stripe-Signature': signature },
      body: tampered,
    });
    expect(swapped.status).toBe(400);
    // An old signature (replayed capture beyond the 5-minute tolerance) is refused.
    const old = await fetch(`${stack.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { 'Stripe-Signature': `t=${nowSeconds() - 3600},v1=${'0'.repeat(64)}` },
      body: JSON.stringify(event),
    });
    expect(old.status).toBe(400);
    const known = await stack.ctx.db.query(`select id from public.billing_events where id = $1`, [event.id]);
    expect(known.rows).toEqual([]);
    expect(await rowsOf(stack, c.id)).toEqual({ subscription: null, roles: [] });
  });

  it('applies an event once: a replay changes nothing', async () => {
    const c = await signedInCustomer(stack, 'replay');
    const created = localEvent('customer.subscription.created', subscriptionFor(c.id));
    const first = await sendEvent(stack, created);
    expect(await first.json()).toEqual({ received: true, outcome: 'applied' });
    // The provider moves on (payment), then the first event is delivered again.
    await sendEvent(
      stack,
      eventAt(
        'customer.subscription.updated',
        subscriptionFor(c.id, { status: 'active', trialEnd: null }),
        created.created + 5,
      ),
    );
    const replay = await sendEvent(stack, created);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    const { subscription, roles } = await rowsOf(stack, c.id);
    expect(subscription?.status).toBe('active');
    expect(roles.map((r) => r.status)).toEqual(['active', 'active']);
  });

  it('never lets an older event overwrite newer state', async () => {
    const c = await signedInCustomer(stack, 'order');
    const t = nowSeconds();
    const canceled = eventAt(
      'customer.subscription.deleted',
      subscriptionFor(c.id, { status: 'canceled' }),
      t + 20,
    );
    const cancelling = eventAt(
      'customer.subscription.updated',
      subscriptionFor(c.id, { cancelAtPeriodEnd: true }),
      t + 10,
    );
    const created = eventAt('customer.subscription.created', subscriptionFor(c.id), t);
    expect(await (await sendEvent(stack, canceled)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await sendEvent(stack, created)).json()).toMatchObject({ outcome: 'stale' });
    expect(await (await sendEvent(stack, cancelling)).json()).toMatchObject({ outcome: 'stale' });
    const { subscription, roles } = await rowsOf(stack, c.id);
    expect(subscription?.status).toBe('canceled');
    expect(roles.map((r) => r.status)).toEqual(['canceled', 'canceled']);
  });

  it('maps failed and paid invoices onto the stored subscription', async () => {
    const c = await signedInCustomer(stack, 'invoice');
    const t = nowSeconds();
    const sub = subscriptionFor(c.id, { status: 'active', trialEnd: null });
    await sendEvent(stack, eventAt('customer.subscription.created', sub, t));
    const invoice = (amount: number) => ({
      object: 'invoice',
      amount_paid: amount,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    });
    await sendEvent(stack, eventAt('invoice.payment_failed', invoice(0), t + 1));
    expect((await rowsOf(stack, c.id)).subscription?.status).toBe('past_due');
    expect((await rowsOf(stack, c.id)).roles.map((r) => r.status)).toEqual(['past_due', 'past_due']);
    await sendEvent(stack, eventAt('invoice.paid', invoice(53820), t + 2));
    expect((await rowsOf(stack, c.id)).subscription?.status).toBe('active');
  });

  it('ignores role ids outside the catalogue and events for unknown users', async () => {
    const c = await signedInCustomer(stack, 'meta');
    const sub = subscriptionFor(c.id);
    sub.metadata.role_ids = `${ROLE.analyst},${crypto.randomUUID()},not-a-uuid`;
    expect((await sendEvent(stack, localEvent('customer.subscription.created', sub))).status).toBe(200);
    expect((await rowsOf(stack, c.id)).roles.map((r) => r.agent_role_id)).toEqual([ROLE.analyst]);
    const ghost = await sendEvent(
      stack,
      localEvent('customer.subscription.created', subscriptionFor(crypto.randomUUID())),
    );
    expect(await ghost.json()).toMatchObject({ outcome: 'unknown_user' });
  });
});
