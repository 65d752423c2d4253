import { describe, expect, it } from 'vitest';
import { decodeRoleIds, encodeRoleIds, subscriptionState } from './billing-state.ts';

const base = {
  id: 'sub_1',
  object: 'subscription',
  customer: 'cus_1',
  status: 'trialing',
  trial_end: 1_800_000_000,
  cancel_at_period_end: false,
  items: {
    object: 'list',
    data: [{ current_period_end: 1_800_000_000 }, { current_period_end: 1_800_000_100 }],
  },
  metadata: { user_id: 'u-1', role_ids: 'r-1,r-2', monthly_amount: '53820' },
};

describe('subscriptionState', () => {
  it('maps a Stripe subscription (period end on the items) to the stored state', () => {
    expect(subscriptionState(base)).toEqual({
      user_id: 'u-1',
      role_ids: ['r-1', 'r-2'],
      provider_subscription_id: 'sub_1',
      provider_customer_id: 'cus_1',
      status: 'trialing',
      trial_ends_at: new Date(1_800_000_000_000).toISOString(),
      current_period_ends_at: new Date(1_800_000_100_000).toISOString(),
      cancel_at_period_end: false,
      monthly_amount: 53820,
      card_fingerprint: null,
    });
  });

  it("reads the card's fingerprint when the payment method comes expanded, never from an id", () => {
    const card = {
      id: 'pm_1',
      object: 'payment_method',
      card: { fingerprint: 'Xt5EWLLDS7FJjR1c', last4: '4242' },
    };
    expect(subscriptionState({ ...base, default_payment_method: card })?.card_fingerprint).toBe(
      'Xt5EWLLDS7FJjR1c',
    );
    expect(subscriptionState({ ...base, default_payment_method: 'pm_1' })?.card_fingerprint).toBeNull();
    expect(
      subscriptionState({
        ...base,
        default_payment_method: { id: 'pm_2', object: 'payment_method', card: null },
      })?.card_fingerprint,
    ).toBeNull();
  });

  it('reads the legacy top-level period end, an expanded customer and maps the provider-only statuses', () => {
    const legacy = {
      ...base,
      items: undefined,
      current_period_end: 1_700_000_000,
      customer: { id: 'cus_9' },
      status: 'incomplete_expired',
    };
    expect(subscriptionState(legacy)).toMatchObject({
      provider_customer_id: 'cus_9',
      status: 'canceled',
      current_period_ends_at: new Date(1_700_000_000_000).toISOString(),
    });
    expect(subscriptionState({ ...base, status: 'paused' })?.status).toBe('unpaid');
    expect(subscriptionState({ ...base, status: 'past_due' })?.status).toBe('past_due');
  });

  it('ignores subscriptions made outside our checkout and refuses what is not a subscription', () => {
    expect(subscriptionState({ ...base, metadata: {} })).toBeNull();
    expect(() => subscriptionState({ ...base, status: 'exploded' })).toThrow(/Unknown subscription status/);
    expect(() => subscriptionState({ ...base, object: 'invoice' })).toThrow();
    expect(
      subscriptionState({ ...base, metadata: { ...base.metadata, monthly_amount: '-5' } })?.monthly_amount,
    ).toBeNull();
  });

  it('round-trips role ids through metadata', () => {
    expect(decodeRoleIds(encodeRoleIds(['a', 'b']))).toEqual(['a', 'b']);
    expect(decodeRoleIds(undefined)).toEqual([]);
    expect(decodeRoleIds(' a , ,b ')).toEqual(['a', 'b']);
  });
});
