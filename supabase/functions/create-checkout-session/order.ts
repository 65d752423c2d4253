import type { SupabaseClient } from '@supabase/supabase-js';
import { bundleQuote, type BundleQuote } from '../../../shared/pricing.ts';
import { HttpError } from '../_shared/http.ts';

export interface OrderRole {
  id: string;
  name: string;
  price_monthly: number;
  provider_price_id: string | null;
}

export interface Order {
  roles: OrderRole[];
  quote: BundleQuote;
  /** Whether it starts with the free trial: only for a customer who never had one (one per customer). */
  trial: boolean;
}

/**
 * The order priced on the server from agent_roles (the client's prices are never read): every role must
 * exist, and none may already be active or trialing for the buyer (they would pay twice). The free trial
 * comes with it only while the buyer never had one (billing_trials; the webhook also checks the card).
 */
export async function buildOrder(
  admin: SupabaseClient,
  userId: string,
  roleIds: readonly string[],
): Promise<Order> {
  const { data: roles, error } = await admin
    .from('agent_roles')
    .select('id, name, price_monthly, provider_price_id, display_order')
    .in('id', [...roleIds])
    .order('display_order');
  if (error) {
    throw new Error(`agent_roles read failed: ${error.message}`);
  }
  const found = new Set((roles ?? []).map((r) => r.id as string));
  const unknown = roleIds.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw new HttpError(400, 'Unknown security agent selected', { roleIds: unknown });
  }
  const { data: active, error: activeError } = await admin
    .from('user_agent_subscriptions')
    .select('agent_role_id')
    .eq('user_id', userId)
    .in('agent_role_id', [...roleIds])
    .in('status', ['active', 'trialing']);
  if (activeError) {
    throw new Error(`user_agent_subscriptions read failed: ${activeError.message}`);
  }
  if ((active ?? []).length > 0) {
    const ids = new Set((active ?? []).map((a) => a.agent_role_id as string));
    const names = (roles ?? []).filter((r) => ids.has(r.id as string)).map((r) => r.name as string);
    throw new HttpError(409, `Already active: ${names.join(', ')}`, { roleIds: [...ids] });
  }
  const orderRoles = (roles ?? []).map((r) => ({
    id: r.id as string,
    name: r.name as string,
    price_monthly: r.price_monthly as number,
    provider_price_id: (r.provider_price_id as string | null) ?? null,
  }));
  const trialCheck: { data: unknown; error: { message: string } | null } = await admin.rpc(
    'trial_available',
    { p_user: userId },
  );
  const { data: trial, error: trialError } = trialCheck;
  if (trialError) {
    throw new Error(`trial_available failed: ${trialError.message}`);
  }
  return {
    roles: orderRoles,
    quote: bundleQuote(orderRoles.map((r) => r.price_monthly)),
    trial: trial === true,
  };
}
