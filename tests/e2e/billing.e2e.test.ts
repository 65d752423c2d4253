// Settings → Billing (docs/product.md §4, subscription): no subscription yet, then the trial after checkout,
// cancel at period end and resume, each shown to the customer and written on the server; a returning
// customer is told before payment that there is no second free trial (docs/product.md §14).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { nowSeconds } from '../../supabase/functions/_shared/local-stripe.ts';
import { client } from '../helpers/stack.ts';
import { localEvent, sendEvent } from '../helpers/billing-support.ts';
import { selectAndCheckOut, signUpConfirmed } from './checkout-support.ts';
import { saveScreenshot } from './screenshots.ts';
import { type E2E, newPage, startE2E } from './harness.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

describe('billing in settings', () => {
  it('shows the trial, cancels at period end and resumes', async () => {
    const { page, context } = await newPage(e2e);
    await signUpConfirmed(page, 'billing');
    const userId = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
      return (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { user?: { id?: string } }).user?.id;
    });
    expect(userId).toBeTruthy();

    await page.goto('/dashboard/settings');
    await page.getByText('No subscription yet.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);

    await selectAndCheckOut(page, ['Threat Intelligence', 'Forensics Investigator', 'Cloud Security']);
    await page.getByText('Subscription Successful!', { exact: true }).first().waitFor();

    const nav = page.getByRole('navigation', { name: 'Dashboard', exact: true });
    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Free trial', { exact: true }).waitFor();
    for (const name of ['Threat Intelligence', 'Forensics Investigator', 'Cloud Security']) {
      await page.getByText(new RegExp(`(^|, )${name}(,|$)`)).waitFor();
    }
    // 3 agents: 15% off 29900 + 44900 + 39900 = 114700 → 97495 cents.
    await page.getByText('$975/month', { exact: true }).waitFor();
    await saveScreenshot(page, 'billing 1 trial');

    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('Subscription will end at the period end', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Resume subscription' }).waitFor();
    await page.getByText('(canceled, no further charges)', { exact: false }).waitFor();
    const admin = client(e2e.stack, 'service_role');
    const cancelFlag = async () =>
      (await admin.from('subscriptions').select('cancel_at_period_end').eq('user_id', userId!).single()).data
        ?.cancel_at_period_end as boolean;
    expect(await cancelFlag()).toBe(true);
    await saveScreenshot(page, 'billing 2 canceled');

    await page.getByRole('button', { name: 'Resume subscription' }).click();
    await page.getByText('Subscription resumed', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Cancel subscription' }).waitFor();
    expect(await cancelFlag()).toBe(false);
    // Cancelling at period end keeps the agents working until then.
    await nav.getByRole('link', { name: 'Agents' }).click();
    await expect.poll(() => page.getByText('Active & Monitoring', { exact: true }).count()).toBe(3);
    await context.close();
  });

  it('tells a customer who had the free trial so before payment, and starts the subscription paid', async () => {
    const { page, context } = await newPage(e2e);
    await signUpConfirmed(page, 'returning');
    await selectAndCheckOut(page, ['Application Security'], '5555 5555 5555 4444');
    await page.getByText('Subscription Successful!', { exact: true }).first().waitFor();

    // The trial's subscription ends at the provider (cancelled, period over).
    const admin = client(e2e.stack, 'service_role');
    const userId = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
      return (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { user?: { id?: string } }).user?.id;
    });
    const { data: sub } = await admin
      .from('subscriptions')
      .select('provider_subscription_id, provider_customer_id')
      .eq('user_id', userId!)
      .single();
    const ended = localEvent('customer.subscription.deleted', {
      id: sub!.provider_subscription_id as string,
      object: 'subscription',
      customer: sub!.provider_customer_id as string,
      status: 'canceled',
      trial_end: null,
      cancel_at_period_end: false,
      items: { object: 'list', data: [{ current_period_end: nowSeconds() }] },
      metadata: {
        user_id: userId!,
        role_ids: 'a9e1c0de-0006-4000-8000-000000000006',
        monthly_amount: '39900',
      },
    });
    expect((await sendEvent(e2e.stack, ended)).status).toBe(200);

    // The plans say it before anything is paid.
    await page.goto('/dashboard/agents');
    await page.getByText('Select agents to subscribe. No free trial: you already had one.').waitFor();
    await page.getByRole('checkbox', { name: 'Select Application Security' }).check();
    await page.getByRole('button', { name: /^Activate Selected Agents/ }).click();
    await page.waitForURL('**/dashboard/select-roles');
    await page.getByRole('alert').filter({ hasText: 'No free trial: you already had one' }).waitFor();
    const summary = page.getByTestId('order-summary');
    await summary.getByText('No free trial: $399/month from today. Cancel anytime.').waitFor();
    expect(await summary.getByText('$399', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Start 7-Day Free Trial' }).count()).toBe(0);
    await saveScreenshot(page, 'billing 3 no second trial');
    await page.getByRole('button', { name: 'Subscribe Now' }).click();

    // So does the checkout page, which charges the first month now.
    await page.waitForURL('**/_checkout/**');
    await page.getByRole('heading', { name: 'Subscribe to your agents' }).waitFor();
    await page.getByText('No free trial: you already had one.', { exact: false }).waitFor();
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Subscribe and pay $399' }).click();
    await page.getByText('Subscription Successful!', { exact: true }).first().waitFor();

    await page.goto('/dashboard/settings');
    await page.getByText('Active', { exact: true }).first().waitFor();
    expect(await page.getByText('Free trial', { exact: true }).count()).toBe(0);
    const { data: roles } = await admin
      .from('user_agent_subscriptions')
      .select('status')
      .eq('user_id', userId!);
    expect(roles).toEqual([{ status: 'active' }]);
    await context.close();
  });
});
