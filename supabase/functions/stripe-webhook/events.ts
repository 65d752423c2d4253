import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  subscriptionState,
  type SubscriptionState,
  type SubscriptionStatus,
} from '../_shared/billing-state.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { withOneTrial } from './one-trial.ts';

/** A verified event: only the envelope fields the mapping reads. */
export interface BillingEvent {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}

export type Outcome = 'applied' | 'stale' | 'duplicate' | 'recorded' | 'unknown_user';

export interface EventDeps {
  admin: SupabaseClient;
  /** The provider's API, or null in local mode. */
  stripe: Stripe | null;
}

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

const CheckoutSession = z
  .object({
    mode: z.string(),
    subscription: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable(),
  })
  .loose();

const Invoice = z
  .object({
    amount_paid: z.number().optional(),
    subscription: z.string().nullable().optional(),
    parent: z
      .object({
        subscription_details: z
          .object({ subscription: z.union([z.string(), z.object({ id: z.string() })]) })
          .loose()
          .nullable()
          .optional(),
      })
      .loose()
      .nullable()
      .optional(),
  })
  .loose();

/**
 * The subscription state an event carries, or null when it changes nothing of ours. Subscription events
 * carry the object; a completed checkout carries it expanded (local mode) or its id (fetched from the API);
 * invoices move the stored subscription to past_due (failed) or active (paid with an amount).
 */
export async function stateForEvent(event: BillingEvent, deps: EventDeps): Promise<SubscriptionState | null> {
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    return subscriptionState(event.data.object);
  }
  if (event.type === 'checkout.session.completed') {
    const session = CheckoutSession.parse(event.data.object);
    if (session.mode !== 'subscription' || !session.subscription) {
      return null;
    }
    if (typeof session.subscription !== 'string') {
      return subscriptionState(session.subscription);
    }
    // Without the API the id alone says nothing; customer.subscription.created carries the state.
    return deps.stripe
      ? subscriptionState(await deps.stripe.subscriptions.retrieve(session.subscription))
      : null;
  }
  if (event.type === 'invoice.payment_failed' || event.type === 'invoice.paid') {
    const invoice = Invoice.parse(event.data.object);
    const parent = invoice.parent?.subscription_details?.subscription;
    const subscriptionId = typeof parent === 'string' ? parent : (parent?.id ?? invoice.subscription ?? null);
    if (!subscriptionId) {
      return null;
    }
    // A $0 invoice (the trial's first) is "paid" too, but the subscription stays trialing.
    const status = invoiceStatus(event.type, invoice.amount_paid ?? 0);
    return status ? storedStateWithStatus(deps.admin, subscriptionId, status) : null;
  }
  return null;
}

export function invoiceStatus(type: string, amountPaid: number): SubscriptionStatus | null {
  if (type === 'invoice.payment_failed') {
    return 'past_due';
  }
  return type === 'invoice.paid' && amountPaid > 0 ? 'active' : null;
}

/** The stored state of a subscription with a new status (null when we do not know it). */
async function storedStateWithStatus(
  admin: SupabaseClient,
  providerSubscriptionId: string,
  status: SubscriptionStatus,
): Promise<SubscriptionState | null> {
  const { data: sub, error } = await admin
    .from('subscriptions')
    .select(
      'user_id, provider_customer_id, trial_ends_at, current_period_ends_at, cancel_at_period_end, monthly_amount',
    )
    .eq('provider_subscription_id', providerSubscriptionId)
    .maybeSingle();
  if (error) {
    throw new Error(`subscriptions read failed: ${error.message}`);
  }
  if (!sub) {
    return null;
  }
  const { data: roles, error: rolesError } = await admin
    .from('user_agent_subscriptions')
    .select('agent_role_id')
    .eq('provider_subscription_id', providerSubscriptionId);
  if (rolesError) {
    throw new Error(`user_agent_subscriptions read failed: ${rolesError.message}`);
  }
  return {
    user_id: sub.user_id as string,
    role_ids: (roles ?? []).map((r) => r.agent_role_id as string),
    provider_subscription_id: providerSubscriptionId,
    provider_customer_id: sub.provider_customer_id as string | null,
    status,
    trial_ends_at: sub.trial_ends_at as string | null,
    current_period_ends_at: sub.current_period_ends_at as string | null,
    cancel_at_period_end: sub.cancel_at_period_end as boolean,
    monthly_amount: sub.monthly_amount as number | null,
    card_fingerprint: null,
  };
}

/** Applies one verified event: recorded once, state written only when it is not older than what is stored. */
export async function applyEvent(event: BillingEvent, deps: EventDeps): Promise<Outcome> {
  const carried = await stateForEvent(event, deps);
  // Guard: a trial only for a customer and a card that never had one.
  const state = carried ? await withOneTrial(carried, deps) : null;
  const result: { data: unknown; error: { message: string } | null } = await deps.admin.rpc(
    'billing_apply_event',
    {
      p_event_id: event.id,
      p_event_type: event.type,
      p_event_created: new Date(event.created * 1000).toISOString(),
      p_state: state,
    },
  );
  if (result.error) {
    // A failed write is retried by the provider: the event id was rolled back with it.
    throw new Error(`billing_apply_event failed: ${result.error.message}`);
  }
  return result.data as Outcome;
}
