import type { Queryable } from '../../server/db/database.ts';
import type { AgentRoleType } from '../../shared/constants.ts';

/**
 * Gives a customer agents as the payment webhook does: one provider subscription carrying the roles,
 * applied through billing_apply_event (the webhook's only write path), trialing unless told otherwise.
 * Scans, verifications and reports need such an agent (migration 20261124100000).
 */
export async function activateAgents(
  db: Queryable,
  userId: string,
  roleTypes: readonly AgentRoleType[],
  status: 'trialing' | 'active' | 'canceled' = 'trialing',
): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    `select id from public.agent_roles where role_type::text = any($1::text[])`,
    [roleTypes],
  );
  if (rows.length !== roleTypes.length) {
    throw new Error(`unknown agent roles in ${roleTypes.join(', ')}`);
  }
  const subscription = `sub_test_${userId.replaceAll('-', '').slice(0, 16)}`;
  const { rows: outcome } = await db.query<{ outcome: string }>(
    `select public.billing_apply_event($1, 'customer.subscription.updated', now(), $2::jsonb) as outcome`,
    [
      `evt_test_${crypto.randomUUID().replaceAll('-', '')}`,
      JSON.stringify({
        user_id: userId,
        role_ids: rows.map((r) => r.id),
        provider_subscription_id: subscription,
        provider_customer_id: `cus_test_${userId.replaceAll('-', '').slice(0, 12)}`,
        status,
        trial_ends_at: status === 'trialing' ? new Date(Date.now() + 7 * 86_400_000).toISOString() : null,
        current_period_ends_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        cancel_at_period_end: false,
        monthly_amount: 0,
      }),
    ],
  );
  if (outcome[0]?.outcome !== 'applied') {
    throw new Error(`activating agents for ${userId}: ${outcome[0]?.outcome ?? 'no outcome'}`);
  }
}

/** The roles whose agents cover every scanner the tests drive (webapp, api, infrastructure, siem). */
export const SCANNING_AGENTS: readonly AgentRoleType[] = ['penetration_tester', 'cybersecurity_analyst'];
