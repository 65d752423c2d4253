import { encodeRoleIds, type BillingMetadata, type SubscriptionStatus } from './billing-state.ts';
import { webCrypto, webhooks } from './stripe.ts';

/**
 * Local mode (no STRIPE_SECRET_KEY): the objects and signed events Stripe would send, built from our
 * own records, so the local checkout, cancel and resume go through the production webhook handler.
 */

export const TRIAL_DAYS = 7;
const DAY = 86_400;

export interface LocalSubscriptionInput {
  id: string;
  customer: string;
  userId: string;
  roleIds: readonly string[];
  monthlyAmount: number;
  status: SubscriptionStatus;
  trialEnd: number | null;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function billingMetadata(
  userId: string,
  roleIds: readonly string[],
  monthlyAmount: number,
): BillingMetadata {
  return { user_id: userId, role_ids: encodeRoleIds(roleIds), monthly_amount: String(monthlyAmount) };
}

/** A new subscription as Stripe creates it with a 7-day trial: trialing until trial_end. */
export function newTrialSubscription(
  input: Omit<LocalSubscriptionInput, 'status' | 'trialEnd' | 'periodEnd' | 'cancelAtPeriodEnd'>,
) {
  const trialEnd = nowSeconds() + TRIAL_DAYS * DAY;
  return localSubscription({
    ...input,
    status: 'trialing',
    trialEnd,
    periodEnd: trialEnd,
    cancelAtPeriodEnd: false,
  });
}

/** A Stripe-shaped subscription object (API 2025+: the period end is on each item). */
export function localSubscription(input: LocalSubscriptionInput) {
  return {
    id: input.id,
    object: 'subscription' as const,
    customer: input.customer,
    status: input.status,
    livemode: false,
    trial_end: input.trialEnd,
    cancel_at_period_end: input.cancelAtPeriodEnd,
    items: {
      object: 'list' as const,
      data: input.roleIds.map((roleId, i) => ({
        id: `si_local_${i}_${input.id.slice(-12)}`,
        object: 'subscription_item' as const,
        current_period_end: input.periodEnd,
        metadata: { role_id: roleId },
      })),
    },
    metadata: billingMetadata(input.userId, input.roleIds, input.monthlyAmount),
  };
}

/** A Stripe-shaped event envelope around `object`. */
export function localEvent<T>(type: string, object: T) {
  return {
    id: `evt_local_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event' as const,
    api_version: null,
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The Stripe-Signature header for `payload`, exactly as Stripe computes it (t=…,v1=HMAC-SHA256). */
export function signPayload(payload: string, secret: string): Promise<string> {
  return webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider: webCrypto });
}

/** Signs `event` and POSTs it to the stripe-webhook function at `functionsBase`, like Stripe delivers it. */
export async function deliverLocalEvent(
  functionsBase: string,
  event: unknown,
  secret: string,
): Promise<Response> {
  const payload = JSON.stringify(event);
  return fetch(`${functionsBase.replace(/\/$/, '')}/functions/v1/stripe-webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': await signPayload(payload, secret) },
    body: payload,
  });
}
