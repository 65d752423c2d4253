import type { StackContext } from '../context.ts';
import {
  deliverLocalEvent,
  localEvent,
  newPaidSubscription,
  newTrialSubscription,
  type LocalCard,
} from '../../supabase/functions/_shared/local-stripe.ts';
import { localWebhookSecret } from '../../supabase/functions/_shared/stripe.ts';
import { localCustomer, type LocalCheckout } from './sessions.ts';

/** The secret the stripe-webhook function verifies local events with (see _shared/stripe.ts). */
export async function localSigningSecret(ctx: StackContext): Promise<string> {
  return ctx.config.stripeWebhookSecret ?? localWebhookSecret(ctx.keys.serviceRoleKey);
}

/**
 * Completes a local checkout as Stripe would: a new subscription, trialing for 7 days when the session
 * offered the trial, else active with its first month paid, paid with `card` (its fingerprint as Stripe
 * reports it), sent as a signed checkout.session.completed event (subscription and payment method
 * expanded) to the production webhook handler over HTTP, which also holds the card to one trial.
 * Returns whether the webhook accepted it.
 */
export async function completeLocalCheckout(
  ctx: StackContext,
  session: LocalCheckout,
  card: LocalCard,
): Promise<boolean> {
  const customer = await localCustomer(ctx.db, session.user_id);
  const input = {
    id: `sub_local_${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`,
    customer,
    userId: session.user_id,
    roleIds: session.role_ids,
    monthlyAmount: session.total,
    card,
  };
  const subscription = session.trial ? newTrialSubscription(input) : newPaidSubscription(input);
  const event = localEvent('checkout.session.completed', {
    id: session.id,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: session.trial ? 'no_payment_required' : 'paid',
    client_reference_id: session.user_id,
    customer,
    amount_subtotal: session.subtotal,
    amount_total: session.total,
    metadata: subscription.metadata,
    subscription,
    success_url: session.success_url,
    cancel_url: session.cancel_url,
  });
  const response = await deliverLocalEvent(ctx.config.publicUrl, event, await localSigningSecret(ctx));
  if (!response.ok) {
    console.error(
      `local checkout ${session.id}: webhook answered ${response.status}: ${await response.text()}`,
    );
  }
  return response.ok;
}
