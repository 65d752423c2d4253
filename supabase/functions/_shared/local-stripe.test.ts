import { describe, expect, it } from 'vitest';
import {
  localEvent,
  newPaidSubscription,
  newTrialSubscription,
  oneMonthLater,
  signPayload,
} from './local-stripe.ts';
import { localWebhookSecret, webCrypto, webhooks } from './stripe.ts';

describe('local Stripe events', () => {
  it('are signed exactly as Stripe signs webhooks: t=…,v1=HMAC-SHA256(secret, "t.payload")', async () => {
    const payload = JSON.stringify(localEvent('customer.subscription.updated', { id: 'sub_1' }));
    const header = await signPayload(payload, 'whsec_test');
    const [, t, v1] = header.match(/^t=(\d+),v1=([0-9a-f]{64})$/) ?? [];
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode('whsec_test'),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = new Uint8Array(
      await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${t}.${payload}`)),
    );
    expect(v1).toBe(Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join(''));
    const event = await webhooks.constructEventAsync(payload, header, 'whsec_test', undefined, webCrypto);
    expect(event.type).toBe('customer.subscription.updated');
    await expect(
      webhooks.constructEventAsync(payload, header, 'whsec_other', undefined, webCrypto),
    ).rejects.toThrow();
  });

  it('start a 7-day trial with every role as an item', () => {
    const sub = newTrialSubscription({
      id: 'sub_x',
      customer: 'cus_x',
      userId: 'u',
      roleIds: ['r1', 'r2'],
      monthlyAmount: 100,
    });
    const days = (sub.trial_end! * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(sub).toMatchObject({
      status: 'trialing',
      cancel_at_period_end: false,
      metadata: { user_id: 'u', role_ids: 'r1,r2', monthly_amount: '100' },
    });
    expect(sub.items.data).toHaveLength(2);
  });

  it('start paid, without a trial, for a month, with the card expanded as Stripe sends it', () => {
    const sub = newPaidSubscription({
      id: 'sub_y',
      customer: 'cus_y',
      userId: 'u',
      roleIds: ['r1'],
      monthlyAmount: 29900,
      card: { fingerprint: 'fpLocal000000001', last4: '4242' },
    });
    expect(sub).toMatchObject({
      status: 'active',
      trial_end: null,
      default_payment_method: {
        object: 'payment_method',
        card: { fingerprint: 'fpLocal000000001', last4: '4242' },
      },
    });
    const days = (sub.items.data[0]!.current_period_end * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    // A calendar month, kept within the next month as Stripe's billing anchor is.
    const later = (iso: string) => new Date(oneMonthLater(Date.parse(iso) / 1000) * 1000).toISOString();
    expect(later('2027-05-10T12:00:00.000Z')).toBe('2027-06-10T12:00:00.000Z');
    expect(later('2027-01-31T00:00:00.000Z')).toBe('2027-02-28T00:00:00.000Z');
    expect(later('2027-12-31T00:00:00.000Z')).toBe('2028-01-31T00:00:00.000Z');
  });

  it('derive a per-stack secret from the service-role key', async () => {
    const a = await localWebhookSecret('key-a');
    expect(a).toMatch(/^whsec_local_[0-9a-f]{64}$/);
    expect(await localWebhookSecret('key-a')).toBe(a);
    expect(await localWebhookSecret('key-b')).not.toBe(a);
  });
});
