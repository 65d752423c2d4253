// One free trial per customer and per card on the local checkout (docs/product.md §14): every checkout used to
// start a 7-day trial, so a customer could cancel and check out again, or open a second account with the
// same card, and never pay. The local checkout goes through the production webhook like Stripe's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { localSubscription, nowSeconds } from '../../../supabase/functions/_shared/local-stripe.ts';
import { startTestStack } from '../../helpers/stack.ts';
import {
  checkout,
  completeLocalCheckout,
  freshTestCard,
  localEvent,
  ROLE,
  rowsOf,
  sendEvent,
  signedInCustomer,
  type Customer,
} from '../../helpers/billing-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** A checkout of `roles` for the customer: the page's HTML and its URL. */
async function openCheckout(c: Customer, roles: string[]): Promise<{ url: string; html: string }> {
  const { data, error } = await checkout(c.supabase, { roleIds: roles, userId: c.id });
  expect(error).toBeNull();
  const html = await (await fetch(data!.url)).text();
  return { url: data!.url, html };
}

/** The subscription ends at the provider (the customer cancelled and the period ran out). */
async function subscriptionEnds(c: Customer, roles: string[]): Promise<void> {
  const { subscription } = await rowsOf(stack, c.id);
  const ended = localSubscription({
    id: subscription!.provider_subscription_id,
    customer: subscription!.provider_customer_id ?? '',
    userId: c.id,
    roleIds: roles,
    monthlyAmount: subscription!.monthly_amount ?? 0,
    status: 'canceled',
    trialEnd: null,
    periodEnd: nowSeconds(),
    cancelAtPeriodEnd: false,
  });
  expect((await sendEvent(stack, localEvent('customer.subscription.deleted', ended))).status).toBe(200);
}

const trialAvailable = async (c: Customer) => (await c.supabase.rpc('my_trial_available')).data as boolean;

describe('one free trial', () => {
  it('per customer: a second checkout after the trial says so before payment and starts paid', async () => {
    const c = await signedInCustomer(stack, 'again');
    expect(await trialAvailable(c)).toBe(true);
    const first = await openCheckout(c, [ROLE.intel]);
    expect(first.html).toContain('Start your 7-day free trial');
    expect((await completeLocalCheckout(first.url)).status).toBe(303);
    expect((await rowsOf(stack, c.id)).subscription).toMatchObject({ status: 'trialing' });
    expect(await trialAvailable(c)).toBe(false);

    await subscriptionEnds(c, [ROLE.intel]);
    expect((await rowsOf(stack, c.id)).roles).toEqual([{ agent_role_id: ROLE.intel, status: 'canceled' }]);

    const second = await openCheckout(c, [ROLE.intel]);
    for (const text of [
      'Subscribe to your agents',
      'No free trial: you already had one.',
      '$299 is due today',
      'Subscribe and pay $299',
    ]) {
      expect(second.html).toContain(text);
    }
    expect(second.html).not.toContain('7-day free trial');
    expect((await completeLocalCheckout(second.url)).status).toBe(303);
    const { subscription, roles } = await rowsOf(stack, c.id);
    expect(subscription).toMatchObject({ status: 'active', trial_ends_at: null });
    expect(roles).toEqual([{ agent_role_id: ROLE.intel, status: 'active' }]);
  });

  it('per card: a second account paying with a card that had a trial starts paid', async () => {
    const card = freshTestCard();
    const first = await signedInCustomer(stack, 'card-one');
    const firstCheckout = await openCheckout(first, [ROLE.analyst]);
    expect((await completeLocalCheckout(firstCheckout.url, card)).status).toBe(303);
    expect((await rowsOf(stack, first.id)).subscription).toMatchObject({ status: 'trialing' });

    // The new account never had a trial, so the page offers one; the card decides when it is paid with.
    const second = await signedInCustomer(stack, 'card-two');
    const secondCheckout = await openCheckout(second, [ROLE.analyst]);
    expect(secondCheckout.html).toContain('Start your 7-day free trial');
    expect((await completeLocalCheckout(secondCheckout.url, card)).status).toBe(303);
    const { subscription, roles } = await rowsOf(stack, second.id);
    expect(subscription).toMatchObject({ status: 'active', trial_ends_at: null });
    expect(roles).toEqual([{ agent_role_id: ROLE.analyst, status: 'active' }]);
    // Same number, spaced differently: the same card.
    const third = await signedInCustomer(stack, 'card-three');
    const thirdCheckout = await openCheckout(third, [ROLE.analyst]);
    expect((await completeLocalCheckout(thirdCheckout.url, card.replace(/(\d{4})/g, '$1 '))).status).toBe(
      303,
    );
    expect((await rowsOf(stack, third.id)).subscription).toMatchObject({ status: 'active' });
    // Another card is another card.
    const fourth = await signedInCustomer(stack, 'card-four');
    const fourthCheckout = await openCheckout(fourth, [ROLE.analyst]);
    expect((await completeLocalCheckout(fourthCheckout.url, freshTestCard())).status).toBe(303);
    expect((await rowsOf(stack, fourth.id)).subscription).toMatchObject({ status: 'trialing' });
  });

  it('per customer even with two checkouts opened before either completed', async () => {
    const c = await signedInCustomer(stack, 'twice');
    const a = await openCheckout(c, [ROLE.responder]);
    const b = await openCheckout(c, [ROLE.forensics]);
    expect(a.html).toContain('Start your 7-day free trial');
    expect(b.html).toContain('Start your 7-day free trial');
    expect((await completeLocalCheckout(a.url)).status).toBe(303);
    expect((await completeLocalCheckout(b.url)).status).toBe(303);
    expect((await rowsOf(stack, c.id)).roles).toEqual([
      { agent_role_id: ROLE.responder, status: 'trialing' },
      { agent_role_id: ROLE.forensics, status: 'active' },
    ]);
  });
});
