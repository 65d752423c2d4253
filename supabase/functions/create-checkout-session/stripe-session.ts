import type { SupabaseClient, User } from '@supabase/supabase-js';
import { billingMetadata, TRIAL_DAYS } from '../_shared/local-stripe.ts';
import type { Stripe } from '../_shared/stripe.ts';
import type { Order } from './order.ts';

export interface Urls {
  success_url: string;
  cancel_url: string;
}

/**
 * A hosted Stripe Checkout Session in subscription mode, with the 7-day trial when the order has it (a
 * customer's first subscription); without, Stripe's page asks for the first month now. Returns its URL.
 */
export async function createStripeSession(
  stripe: Stripe,
  admin: SupabaseClient,
  user: User,
  order: Order,
  urls: Urls,
): Promise<string> {
  const customer = await customerFor(stripe, admin, user);
  const metadata = billingMetadata(
    user.id,
    order.roles.map((r) => r.id),
    order.quote.total,
  );
  const coupon = order.quote.discountRate > 0 ? await bundleCoupon(stripe, order.quote.discountRate) : null;
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: user.id,
    line_items: order.roles.map((role) =>
      role.provider_price_id
        ? { price: role.provider_price_id, quantity: 1 }
        : {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: role.price_monthly,
              recurring: { interval: 'month' as const },
              product_data: { name: role.name, metadata: { role_id: role.id } },
            },
          },
    ),
    ...(coupon ? { discounts: [{ coupon }] } : {}),
    subscription_data: {
      ...(order.trial ? { trial_period_days: TRIAL_DAYS } : {}),
      metadata: { ...metadata },
    },
    metadata: { ...metadata },
    success_url: urls.success_url,
    cancel_url: urls.cancel_url,
  });
  if (!session.url) {
    throw new Error('Stripe returned a checkout session without a url');
  }
  return session.url;
}

/** The user's Stripe customer: created once, then reused (billing_customers). */
async function customerFor(stripe: Stripe, admin: SupabaseClient, user: User): Promise<string> {
  const existing = await storedCustomer(admin, user.id);
  if (existing) {
    return existing;
  }
  const customer = await stripe.customers.create(
    { email: user.email, metadata: { user_id: user.id } },
    // Two checkouts at once create one customer, not two.
    { idempotencyKey: `vigil-customer-${user.id}` },
  );
  const { error } = await admin
    .from('billing_customers')
    .upsert(
      { user_id: user.id, provider_customer_id: customer.id },
      { onConflict: 'user_id', ignoreDuplicates: true },
    );
  if (error) {
    throw new Error(`billing_customers write failed: ${error.message}`);
  }
  return (await storedCustomer(admin, user.id)) ?? customer.id;
}

async function storedCustomer(admin: SupabaseClient, userId: string): Promise<string | null> {
  const { data, error } = await admin
    .from('billing_customers')
    .select('provider_customer_id')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) {
    throw new Error(`billing_customers read failed: ${error.message}`);
  }
  return (data?.provider_customer_id as string | undefined) ?? null;
}

/** The bundle discount as a reusable coupon per rate (vigil_bundle_10, _15, _20). */
async function bundleCoupon(stripe: Stripe, rate: number): Promise<string> {
  const percent = Math.round(rate * 100);
  const id = `vigil_bundle_${percent}`;
  try {
    return (await stripe.coupons.retrieve(id)).id;
  } catch (e) {
    // Only "no such coupon" means create it; any other failure is the caller's 500.
    if ((e as { code?: string }).code !== 'resource_missing') {
      throw e;
    }
  }
  const coupon = await stripe.coupons.create({
    id,
    percent_off: percent,
    duration: 'forever',
    name: `Bundle discount (${percent}%)`,
  });
  return coupon.id;
}
