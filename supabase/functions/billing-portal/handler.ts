import { z } from 'zod';
import { parseBody } from '../_shared/body.ts';
import type { SubscriptionStatus } from '../_shared/billing-state.ts';
import { requireUser } from '../_shared/clients.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import { redirectOrigin } from '../_shared/origins.ts';
import { stripeClient } from '../_shared/stripe.ts';
import { changeLocally, type StoredSubscription } from './local-change.ts';

const PortalRequest = z.object({ action: z.enum(['portal', 'cancel', 'resume']) });
const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/**
 * billing-portal: the signed-in customer manages their subscription.
 * - portal: a Stripe Billing Portal session URL (payment methods, invoices, plan); needs Stripe.
 * - cancel / resume: cancel at period end or undo it. With Stripe the API call is made and the webhook
 *   writes the result; locally a signed customer.subscription.updated goes through the same webhook.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const { user, clients } = await requireUser(req);
  const { action } = await parseBody(req, PortalRequest);
  const stripe = stripeClient();
  if (action === 'portal') {
    if (!stripe) {
      throw new HttpError(
        409,
        'The billing portal needs a payment provider (STRIPE_SECRET_KEY); use cancel or resume',
      );
    }
    const { data } = await clients.admin
      .from('billing_customers')
      .select('provider_customer_id')
      .eq('user_id', user.id)
      .maybeSingle();
    if (!data) {
      throw new HttpError(404, 'No billing account yet: activate an agent first');
    }
    const session = await stripe.billingPortal.sessions.create({
      customer: data.provider_customer_id as string,
      return_url: `${redirectOrigin(req)}/dashboard/settings`,
    });
    return json({ url: session.url });
  }
  const { data: sub, error } = await clients.admin
    .from('subscriptions')
    .select(
      'provider_subscription_id, provider_customer_id, status, trial_ends_at, current_period_ends_at, monthly_amount, cancel_at_period_end',
    )
    .eq('user_id', user.id)
    .maybeSingle<StoredSubscription & { cancel_at_period_end: boolean }>();
  if (error) {
    throw new Error(`subscriptions read failed: ${error.message}`);
  }
  // Only a running subscription can be cancelled or resumed.
  if (!sub || !sub.provider_subscription_id || !LIVE.includes(sub.status)) {
    throw new HttpError(404, 'No active subscription');
  }
  const cancel = action === 'cancel';
  if (sub.cancel_at_period_end !== cancel) {
    if (stripe) {
      await stripe.subscriptions.update(sub.provider_subscription_id, { cancel_at_period_end: cancel });
    } else {
      await changeLocally(clients.admin, user.id, sub, cancel);
    }
  }
  return json({ cancel_at_period_end: cancel });
});
