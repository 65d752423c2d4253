import { z } from 'zod';

/** Subscription statuses as the database stores them (public.subscription_status). */
export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'incomplete' | 'unpaid';

/** What billing_apply_event writes: one subscription's state, for the user and roles in its metadata. */
export interface SubscriptionState {
  user_id: string;
  role_ids: string[];
  provider_subscription_id: string;
  provider_customer_id: string | null;
  status: SubscriptionStatus;
  trial_ends_at: string | null;
  current_period_ends_at: string | null;
  cancel_at_period_end: boolean;
  monthly_amount: number | null;
  /** The paying card's fingerprint when the provider sent the payment method expanded (one trial per card). */
  card_fingerprint: string | null;
}

/** Metadata checkout puts on the session and the subscription (subscription_data.metadata). */
export interface BillingMetadata {
  user_id: string;
  role_ids: string;
  monthly_amount: string;
}

const STATUS: Record<string, SubscriptionStatus> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  canceled: 'canceled',
  incomplete: 'incomplete',
  unpaid: 'unpaid',
  // The provider's other states, in our enum: an expired first payment ends it, a paused one stops the agents.
  incomplete_expired: 'canceled',
  paused: 'unpaid',
};

/** The subset of a Stripe Subscription the mapping reads (API 2025+: period end lives on the items). */
const SubscriptionObject = z
  .object({
    id: z.string().min(1),
    object: z.literal('subscription'),
    customer: z
      .union([z.string(), z.object({ id: z.string() })])
      .nullable()
      .optional(),
    status: z.string(),
    trial_end: z.number().nullable().optional(),
    cancel_at_period_end: z.boolean().optional(),
    current_period_end: z.number().optional(),
    items: z
      .object({ data: z.array(z.object({ current_period_end: z.number().optional() }).loose()) })
      .loose()
      .optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    // An id unless expanded; expanded, a card's fingerprint identifies the card across customers.
    default_payment_method: z
      .union([
        z.string(),
        z
          .object({
            card: z
              .object({ fingerprint: z.string().min(1).max(255).nullable().optional() })
              .loose()
              .nullable()
              .optional(),
          })
          .loose(),
      ])
      .nullable()
      .optional(),
  })
  .loose();

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);

/** Role ids as checkout writes them into metadata: comma-separated uuids. */
export const encodeRoleIds = (ids: readonly string[]) => ids.join(',');
export const decodeRoleIds = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Maps a provider subscription object to the state we store, or null when it carries no user (a
 * subscription created outside our checkout): such events are recorded and otherwise ignored.
 */
export function subscriptionState(object: unknown): SubscriptionState | null {
  const sub = SubscriptionObject.parse(object);
  const meta = sub.metadata ?? {};
  const userId = meta.user_id;
  if (!userId) {
    return null;
  }
  const status = STATUS[sub.status];
  if (!status) {
    throw new Error(`Unknown subscription status ${sub.status}`);
  }
  const periodEnds = sub.items?.data.map((i) => i.current_period_end ?? 0) ?? [];
  const periodEnd = sub.current_period_end ?? (periodEnds.length ? Math.max(...periodEnds) : null);
  const amount = Number(meta.monthly_amount);
  return {
    user_id: userId,
    role_ids: decodeRoleIds(meta.role_ids),
    provider_subscription_id: sub.id,
    provider_customer_id: typeof sub.customer === 'string' ? sub.customer : (sub.customer?.id ?? null),
    status,
    trial_ends_at: iso(sub.trial_end),
    current_period_ends_at: iso(periodEnd),
    cancel_at_period_end: sub.cancel_at_period_end ?? false,
    monthly_amount: Number.isInteger(amount) && amount >= 0 ? amount : null,
    card_fingerprint:
      typeof sub.default_payment_method === 'object'
        ? (sub.default_payment_method?.card?.fingerprint ?? null)
        : null,
  };
}
