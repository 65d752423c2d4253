// The agents page (docs/product.md §2, §4, §5, §8): selection, the Activate button, live activation through the
// 'subscription-changes' channel without a reload, and a declined test card.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

const activeCount = (page: Page) => page.getByText('Active & Monitoring', { exact: true }).count();

describe('agents page', () => {
  it('enables Activate Selected Agents only with a selection and carries it to checkout', async () => {
    const { page, context } = await newPage(e2e);
    await signUpConfirmed(page, 'select');
    await page.goto('/dashboard/agents');
    await page.getByRole('heading', { name: 'AI Security Agents' }).waitFor();
    expect(await page.getByTestId('agent-select-card').count()).toBe(7);
    const activate = page.getByRole('button', { name: /^Activate Selected Agents/ });
    expect(await activate.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Select Forensics Investigator' }).check();
    await page.getByRole('checkbox', { name: 'Select Threat Intelligence' }).check();
    await page.getByRole('checkbox', { name: 'Select Threat Intelligence' }).uncheck();
    expect(await activate.textContent()).toBe('Activate Selected Agents (1)');
    await saveScreenshot(page, 'agents 1 selection');
    await activate.click();
    await page.waitForURL('**/dashboard/select-roles');
    expect(await page.getByRole('checkbox', { name: 'Select Forensics Investigator' }).isChecked()).toBe(
      true,
    );
    expect(await page.getByRole('checkbox', { name: 'Select Threat Intelligence' }).isChecked()).toBe(false);
    await page.getByTestId('order-summary').getByText('Forensics Investigator').waitFor();
    // A signed-in customer's selection is not parked in session storage (that is for visitors).
    expect(await page.evaluate(() => sessionStorage.getItem('selectedAgentRoles'))).toBeNull();
    await context.close();
  });

  it('shows a declined test card on the checkout page and activates nothing', async () => {
    const { page, context } = await newPage(e2e);
    await signUpConfirmed(page, 'declined');
    await selectAndCheckOut(page, ['Cloud Security'], '4000 0000 0000 0002');
    await page.getByText('Your card was declined (test card 4000 0000 0000 0002).').waitFor();
    await page.goto('/dashboard/agents');
    await page.getByRole('heading', { name: 'AI Security Agents' }).waitFor();
    expect(await activeCount(page)).toBe(0);
    await context.close();
  });

  it('marks agents Active & Monitoring live, without a reload, when checkout completes elsewhere', async () => {
    const { page: watcher, context } = await newPage(e2e);
    await signUpConfirmed(watcher, 'live');
    await watcher.goto('/dashboard/agents');
    await watcher.getByRole('heading', { name: 'AI Security Agents' }).waitFor();
    expect(await activeCount(watcher)).toBe(0);
    // A flag on the window survives only if the page is never reloaded.
    await watcher.evaluate('window.notReloaded = true');

    // A second tab of the same browser (same session) completes a checkout.
    const buyer = await context.newPage();
    await selectAndCheckOut(buyer, ['Incident Responder', 'Application Security']);
    await buyer.getByText('Subscription Successful!', { exact: true }).first().waitFor();

    await expect.poll(() => activeCount(watcher), { timeout: 15_000 }).toBe(2);
    expect(await watcher.evaluate<boolean>('window.notReloaded === true')).toBe(true);
    expect(await watcher.getByText('Active', { exact: true }).count()).toBe(2);
    expect(await watcher.getByRole('checkbox', { name: 'Incident Responder is active' }).isDisabled()).toBe(
      true,
    );
    await saveScreenshot(watcher, 'agents 2 live activation');
    await context.close();
  });
});
