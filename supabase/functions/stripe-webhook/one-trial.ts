import type { SupabaseClient } from '@supabase/supabase-js';
import { subscriptionState, type SubscriptionState } from '../_shared/billing-state.ts';
import { nowSeconds, oneMonthLater } from '../_shared/local-stripe.ts';
import type { Stripe } from '../_shared/stripe.ts';

export interface TrialDeps {
  admin: SupabaseClient;
  /** The provider's API, or null in local mode (then the local checkout is the provider). */
  stripe: Stripe | null;
}

/**
 * One free trial per customer and per card (docs/product.md §14). Checkout offers no trial to a customer who had
 * one, but two checkouts opened before either completed, or a second account paying with the same card,
 * still arrive here as trialing subscriptions. Each trialing state claims its trial (billing_claim_trial);
 * a refused one has its trial ended at the provider (Stripe: trial_end=now, which invoices the first
 * month at once), and the state to store is the provider's answer: active when paid, else past_due or
 * incomplete, never trialing. The card is Stripe's fingerprint of the subscription's payment method.
 */
export async function withOneTrial(state: SubscriptionState, deps: TrialDeps): Promise<SubscriptionState> {
  if (state.status !== 'trialing') {
    return state;
  }
  // The provider's current subscription with its card expanded: an event names the card by id only.
  const current = deps.stripe
    ? await deps.stripe.subscriptions.retrieve(state.provider_subscription_id, {
        expand: ['default_payment_method'],
      })
    : null;
  const fingerprint =
    state.card_fingerprint ?? (current ? (subscriptionState(current)?.card_fingerprint ?? null) : null);
  const claim: { data: unknown; error: { message: string } | null } = await deps.admin.rpc(
    'billing_claim_trial',
    {
      p_user: state.user_id,
      p_subscription: state.provider_subscription_id,
      p_fingerprint: fingerprint,
    },
  );
  const { data: keeps, error } = claim;
  if (error) {
    // The provider retries a failed delivery; nothing was written.
    throw new Error(`billing_claim_trial failed: ${error.message}`);
  }
  if (keeps === true) {
    return state;
  }
  if (!deps.stripe || !current) {
    return endLocalTrial(state);
  }
  const ended =
    current.status === 'trialing'
      ? await deps.stripe.subscriptions.update(state.provider_subscription_id, {
          trial_end: 'now',
          expand: ['default_payment_method'],
        })
      : current;
  return subscriptionState(ended) ?? { ...state, status: 'incomplete', trial_ends_at: null };
}

/** Local mode: the trial ends now and the test card pays the first month, as Stripe would charge it. */
function endLocalTrial(state: SubscriptionState): SubscriptionState {
  return {
    ...state,
    status: 'active',
    trial_ends_at: null,
    current_period_ends_at: new Date(oneMonthLater(nowSeconds()) * 1000).toISOString(),
  };
}
