import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import {
  checkout,
  completeLocalCheckout,
  errorOf,
  ROLE,
  rowsOf,
  signedInCustomer,
  type Customer,
} from '../../helpers/billing-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

async function subscribed(tag: string, roleIds: string[]): Promise<Customer> {
  const c = await signedInCustomer(stack, tag);
  const { data } = await checkout(c.supabase, { roleIds, userId: c.id });
  expect((await completeLocalCheckout(data!.url)).status).toBe(303);
  return c;
}

const manage = (c: { functions: Customer['supabase']['functions'] }, action: string) =>
  c.functions.invoke<{ cancel_at_period_end: boolean }>('billing-portal', { body: { action } });

interface Summary {
  status: string;
  trial_ends_at: string;
  cancel_at_period_end: boolean;
  next_charge_amount: number | null;
  next_charge_at: string | null;
  agents: { id: string; name: string; price_monthly: number; status: string }[];
}

describe('billing summary and cancel / resume (local mode)', () => {
  it('shows the owner their plan, trial end and next charge', async () => {
    const c = await subscribed('summary', [ROLE.analyst, ROLE.pentester]);
    const result: { data: unknown; error: unknown } = await c.supabase.rpc('billing_summary');
    expect(result.error).toBeNull();
    const summary = result.data as Summary;
    expect(summary).toMatchObject({
      status: 'trialing',
      cancel_at_period_end: false,
      next_charge_amount: 62820,
    });
    expect(summary.next_charge_at).toBe(summary.trial_ends_at);
    expect(summary.agents.map((a) => a.name)).toEqual(['Cybersecurity Analyst', 'Penetration Tester']);
    // Another customer sees nothing of it; a visitor may not call it.
    const other = await signedInCustomer(stack, 'nosy');
    expect((await other.supabase.rpc('billing_summary')).data).toBeNull();
    expect((await client(stack).rpc('billing_summary')).error).not.toBeNull();
  });

  it('cancels at period end and resumes through signed webhook events', async () => {
    const c = await subscribed('cancel', [ROLE.responder]);
    const cancelled = await manage(c.supabase, 'cancel');
    expect(cancelled.error).toBeNull();
    expect(cancelled.data).toEqual({ cancel_at_period_end: true });
    let rows = await rowsOf(stack, c.id);
    expect(rows.subscription).toMatchObject({ status: 'trialing', cancel_at_period_end: true });
    // Agents keep working until the period ends; no next charge is due.
    expect(rows.roles).toEqual([{ agent_role_id: ROLE.responder, status: 'trialing' }]);
    expect(((await c.supabase.rpc('billing_summary')).data as Summary).next_charge_amount).toBeNull();
    const events = await stack.ctx.db.query(
      `select type, outcome from public.billing_events where type = 'customer.subscription.updated'`,
    );
    expect(events.rows).toContainEqual({ type: 'customer.subscription.updated', outcome: 'applied' });

    expect((await manage(c.supabase, 'resume')).data).toEqual({ cancel_at_period_end: false });
    rows = await rowsOf(stack, c.id);
    expect(rows.subscription).toMatchObject({ status: 'trialing', cancel_at_period_end: false });
    expect(((await c.supabase.rpc('billing_summary')).data as Summary).next_charge_amount).toBe(34900);
  });

  it('refuses visitors, customers without a subscription, and the portal without a provider', async () => {
    expect((await errorOf((await manage(client(stack), 'cancel')).error)).status).toBe(401);
    const c = await signedInCustomer(stack, 'nosub');
    expect((await errorOf((await manage(c.supabase, 'cancel')).error)).status).toBe(404);
    expect((await errorOf((await manage(c.supabase, 'portal')).error)).status).toBe(409);
    expect((await errorOf((await manage(c.supabase, 'delete-everything')).error)).status).toBe(400);
  });

  it('lets customers read but never write their subscription rows', async () => {
    const c = await subscribed('readonly', [ROLE.intel]);
    await c.supabase
      .from('subscriptions')
      .update({ status: 'active', cancel_at_period_end: true })
      .eq('user_id', c.id);
    await c.supabase
      .from('user_agent_subscriptions')
      .insert({ user_id: c.id, agent_role_id: ROLE.forensics, status: 'active' });
    const forged = await c.supabase.from('checkout_sessions').select('*');
    expect(forged.error).not.toBeNull();
    const rows = await rowsOf(stack, c.id);
    expect(rows.subscription).toMatchObject({ status: 'trialing', cancel_at_period_end: false });
    expect(rows.roles).toEqual([{ agent_role_id: ROLE.intel, status: 'trialing' }]);
  });
});
