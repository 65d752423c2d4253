import { encodeRoleIds, type BillingMetadata, type SubscriptionStatus } from './billing-state.ts';
import { webCrypto, webhooks } from './stripe.ts';

/**
 * Local mode (no STRIPE_SECRET_KEY): the objects and signed events Stripe would send, built from our
 * own records, so the local checkout, cancel and resume go through the production webhook handler.
 */

export const TRIAL_DAYS = 7;
const DAY = 86_400;

/** The paying card as Stripe describes it on an expanded payment method. */
export interface LocalCard {
  fingerprint: string;
  last4: string;
}

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
  /** Sent expanded, as `default_payment_method`, when known. */
  card?: LocalCard;
}

type NewSubscriptionInput = Omit<
  LocalSubscriptionInput,
  'status' | 'trialEnd' | 'periodEnd' | 'cancelAtPeriodEnd'
>;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function billingMetadata(
  userId: string,
  roleIds: readonly string[],
  monthlyAmount: number,
): BillingMetadata {
  return { user_id: userId, role_ids: encodeRoleIds(roleIds), monthly_amount: String(monthlyAmount) };
}

/** A new subscription as Stripe creates it with a 7-day trial: trialing until trial_end. */
export function newTrialSubscription(input: NewSubscriptionInput) {
  const trialEnd = nowSeconds() + TRIAL_DAYS * DAY;
  return localSubscription({
    ...input,
    status: 'trialing',
    trialEnd,
    periodEnd: trialEnd,
    cancelAtPeriodEnd: false,
  });
}

/** One calendar month after `from` (Unix seconds), kept within that month as Stripe's billing anchor is. */
export function oneMonthLater(from: number): number {
  const at = new Date(from * 1000);
  const day = at.getUTCDate();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  at.setUTCDate(Math.min(day, lastDay));
  return Math.floor(at.getTime() / 1000);
}

/** A new subscription without a trial (the customer or the card had one): paid for its first month now. */
export function newPaidSubscription(input: NewSubscriptionInput) {
  return localSubscription({
    ...input,
    status: 'active',
    trialEnd: null,
    periodEnd: oneMonthLater(nowSeconds()),
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
    default_payment_method: input.card
      ? {
          id: `pm_local_${input.card.fingerprint}`,
          object: 'payment_method' as const,
          type: 'card' as const,
          card: { brand: 'visa', last4: input.card.last4, fingerprint: input.card.fingerprint },
        }
      : null,
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
