// Settings → Billing (SPEC point 4, subscription): no subscription yet, then the trial after checkout,
// cancel at period end and resume, each shown to the customer and written on the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { client } from '../helpers/stack.ts';
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
});
