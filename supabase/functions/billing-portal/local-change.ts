import type { SupabaseClient } from '@supabase/supabase-js';
import type { SubscriptionStatus } from '../_shared/billing-state.ts';
import { requireEnv } from '../_shared/env.ts';
import { HttpError } from '../_shared/http.ts';
import { deliverLocalEvent, localEvent, localSubscription } from '../_shared/local-stripe.ts';
import { webhookSecret } from '../_shared/stripe.ts';

export interface StoredSubscription {
  provider_subscription_id: string;
  provider_customer_id: string | null;
  status: SubscriptionStatus;
  trial_ends_at: string | null;
  current_period_ends_at: string | null;
  monthly_amount: number | null;
}

const seconds = (iso: string | null) => (iso ? Math.floor(new Date(iso).getTime() / 1000) : null);

/**
 * Local mode: cancel at period end or resume by sending the customer.subscription.updated event Stripe
 * would send, signed, through the stripe-webhook function (the same write path as production).
 */
export async function changeLocally(
  admin: SupabaseClient,
  userId: string,
  sub: StoredSubscription,
  cancel: boolean,
): Promise<void> {
  const { data: roles, error } = await admin
    .from('user_agent_subscriptions')
    .select('agent_role_id')
    .eq('provider_subscription_id', sub.provider_subscription_id)
    .in('status', ['trialing', 'active', 'past_due']);
  if (error) {
    throw new Error(`user_agent_subscriptions read failed: ${error.message}`);
  }
  const object = localSubscription({
    id: sub.provider_subscription_id,
    customer: sub.provider_customer_id ?? '',
    userId,
    roleIds: (roles ?? []).map((r) => r.agent_role_id as string),
    monthlyAmount: sub.monthly_amount ?? 0,
    status: sub.status,
    trialEnd: seconds(sub.trial_ends_at),
    periodEnd: seconds(sub.current_period_ends_at) ?? seconds(sub.trial_ends_at) ?? 0,
    cancelAtPeriodEnd: cancel,
  });
  const event = localEvent('customer.subscription.updated', object);
  const response = await deliverLocalEvent(requireEnv('SUPABASE_URL'), event, await webhookSecret());
  if (!response.ok) {
    throw new HttpError(502, `The subscription could not be updated (webhook answered ${response.status})`);
  }
}
