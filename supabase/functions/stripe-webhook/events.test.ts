import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';
import type { Stripe } from '../_shared/stripe.ts';
import { invoiceStatus, stateForEvent } from './events.ts';

const sub = {
  id: 'sub_1',
  object: 'subscription',
  customer: 'cus_1',
  status: 'active',
  trial_end: null,
  items: { data: [{ current_period_end: 1_800_000_000 }] },
  metadata: { user_id: 'u-1', role_ids: 'r-1', monthly_amount: '100' },
};
const noDb = {} as SupabaseClient;
const event = (type: string, object: unknown) => ({ id: 'evt_1', type, created: 1, data: { object } });

describe('stateForEvent', () => {
  it('reads subscription events from the object they carry', async () => {
    for (const type of [
      'customer.subscription.created',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]) {
      expect(await stateForEvent(event(type, sub), { admin: noDb, stripe: null })).toMatchObject({
        status: 'active',
        user_id: 'u-1',
      });
    }
  });

  it('reads a completed checkout from the expanded subscription, or fetches it by id', async () => {
    const expanded = event('checkout.session.completed', { mode: 'subscription', subscription: sub });
    expect((await stateForEvent(expanded, { admin: noDb, stripe: null }))?.provider_subscription_id).toBe(
      'sub_1',
    );
    const byId = event('checkout.session.completed', { mode: 'subscription', subscription: 'sub_1' });
    expect(await stateForEvent(byId, { admin: noDb, stripe: null })).toBeNull();
    const retrieve = vi.fn().mockResolvedValue(sub);
    const stripe = { subscriptions: { retrieve } } as unknown as Stripe;
    expect((await stateForEvent(byId, { admin: noDb, stripe }))?.status).toBe('active');
    expect(retrieve).toHaveBeenCalledWith('sub_1');
    expect(
      await stateForEvent(event('checkout.session.completed', { mode: 'payment', subscription: null }), {
        admin: noDb,
        stripe,
      }),
    ).toBeNull();
  });

  it('ignores events it does not handle', async () => {
    expect(await stateForEvent(event('charge.refunded', {}), { admin: noDb, stripe: null })).toBeNull();
  });
});

describe('invoiceStatus', () => {
  it('marks failed payments past_due and paid invoices with an amount active; the $0 trial invoice changes nothing', () => {
    expect(invoiceStatus('invoice.payment_failed', 0)).toBe('past_due');
    expect(invoiceStatus('invoice.paid', 29900)).toBe('active');
    expect(invoiceStatus('invoice.paid', 0)).toBeNull();
  });
});
