// The visitor's way to a subscription (docs/product.md §2, §4, §5, §6): select agents on the landing page and
// the selection page, start checkout, sign up, confirm by e-mail, come back to the same selection, pay on
// the local test checkout and see the agents active. Screenshots of each page go to test-results/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { saveScreenshot } from './screenshots.ts';
import { type E2E, latestMail, newPage, startE2E } from './harness.ts';
import { client } from '../helpers/stack.ts';
import { fillSignUpForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const ANALYST = 'a9e1c0de-0001-4000-8000-000000000001';
const PENTESTER = 'a9e1c0de-0002-4000-8000-000000000002';
const shot = (page: Page, name: string) => saveScreenshot(page, `checkout ${name}`);
const checkbox = (page: Page, name: string) => page.getByRole('checkbox', { name: `Select ${name}` });

async function signUp(page: Page, email: string) {
  await fillSignUpForm(page, {
    fullName: 'Joan Clarke',
    company: 'Hut 8 Security',
    industry: 'Financial Services',
    email: email,
    password: 'crib-sheet-42',
  });
}

describe('visitor checkout', () => {
  it('selects agents, signs up on the way, pays with the test card and sees them active', async () => {
    const { page, context } = await newPage(e2e);
    const email = `joan-${Date.now()}@example.com`;

    // The landing page's agent card starts the selection with that agent.
    await page.goto('/');
    const pentesterCard = page.getByTestId('agent-card').filter({ hasText: 'Penetration Tester' });
    await pentesterCard.getByRole('link', { name: 'Start Free Trial' }).click();
    await page.waitForURL('**/dashboard/select-roles');
    await page.getByRole('heading', { name: 'Activate Security Agents' }).waitFor();
    expect(await checkbox(page, 'Penetration Tester').isChecked()).toBe(true);
    expect(await checkbox(page, 'Cybersecurity Analyst').isChecked()).toBe(false);

    // Deselecting everything leaves nothing to buy: the page says so and checkout refuses.
    await checkbox(page, 'Penetration Tester').uncheck();
    await page.getByText('No agents selected: Please select at least one agent to proceed').first().waitFor();
    await page.getByRole('button', { name: 'Start 7-Day Free Trial' }).click();
    await page.getByText('Please select at least one agent to proceed', { exact: true }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/select-roles');

    await checkbox(page, 'Penetration Tester').check();
    await checkbox(page, 'Cybersecurity Analyst').check();
    const summary = page.getByTestId('order-summary');
    await summary.getByText('Bundle discount (10% for 2 agents)').waitFor();
    await summary.getByText('$628/month').first().waitFor();
    await shot(page, '1-selection-visitor');

    // A visitor's checkout goes to /auth with the selection stored and in the navigation state.
    await page.getByRole('button', { name: 'Start 7-Day Free Trial' }).click();
    await page.waitForURL((url) => url.pathname === '/auth');
    const stored = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem('selectedAgentRoles'))) ?? '[]',
    ) as string[];
    expect(stored.sort()).toEqual([ANALYST, PENTESTER]);
    const state = await page.evaluate<{ from: string; selectedRoles: string[] }>('window.history.state.usr');
    expect(state.from).toBe('agent-selection');
    expect([...state.selectedRoles].sort()).toEqual([ANALYST, PENTESTER]);
    await shot(page, '2-auth');

    await signUp(page, email);
    await page.waitForURL('**/auth/verify');
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();

    // The e-mail link (in this tab) confirms the account and leads back to the same selection.
    const mail = await latestMail(e2e.stack, email);
    const link = mail.links.find((url) => url.includes('/auth/v1/verify'));
    expect(link, 'confirmation link').toBeTruthy();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Authentication Complete' }).waitFor();
    await page.waitForURL('**/dashboard/select-roles', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Activate Security Agents' }).waitFor();
    expect(await checkbox(page, 'Penetration Tester').isChecked()).toBe(true);
    expect(await checkbox(page, 'Cybersecurity Analyst').isChecked()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('selectedAgentRoles'))).toBeNull();
    await page.getByRole('navigation', { name: 'Dashboard', exact: true }).waitFor();
    // A reload keeps the selection (it lives in the history entry now).
    await page.reload();
    await page.getByRole('heading', { name: 'Activate Security Agents' }).waitFor();
    expect(await checkbox(page, 'Cybersecurity Analyst').isChecked()).toBe(true);
    await shot(page, '3-selection-signed-in');

    // Checkout on the local test page with the test card.
    await page.getByRole('button', { name: 'Start 7-Day Free Trial' }).click();
    await page.waitForURL('**/_checkout/**');
    await page.getByRole('heading', { name: 'Start your 7-day free trial' }).waitFor();
    await page.getByText('Penetration Tester').waitFor();
    await page.getByText('Bundle discount (10%)').waitFor();
    await shot(page, '4-checkout');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Start free trial' }).click();

    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByText('Subscription Successful!', { exact: true }).first().waitFor();
    await page
      .getByText('Your security agents have been activated and are now protecting your systems.')
      .first()
      .waitFor();
    await shot(page, '5-success');
    // The parameters are dropped, so a reload does not repeat the toast.
    await page.waitForURL((url) => url.search === '');

    const nav = page.getByRole('navigation', { name: 'Dashboard', exact: true });
    await nav.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('heading', { name: 'AI Security Agents' }).waitFor();
    await expect.poll(() => page.getByText('Active & Monitoring', { exact: true }).count()).toBe(2);
    expect(await page.getByRole('checkbox', { name: 'Penetration Tester is active' }).isDisabled()).toBe(
      true,
    );
    expect(await page.getByRole('button', { name: /^Activate Selected Agents/ }).isDisabled()).toBe(true);
    await shot(page, '6-agents-active');

    // The server agrees: two trialing agent subscriptions for this user.
    const admin = client(e2e.stack, 'service_role');
    const userId = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
      return (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { user?: { id?: string } }).user?.id;
    });
    expect(userId).toBeTruthy();
    const { data: rows } = await admin
      .from('user_agent_subscriptions')
      .select('agent_role_id, status')
      .eq('user_id', userId!);
    expect((rows ?? []).map((r) => `${r.agent_role_id as string}:${r.status as string}`).sort()).toEqual([
      `${ANALYST}:trialing`,
      `${PENTESTER}:trialing`,
    ]);

    // Page views and auth events reached monitoring_metrics in batches (5 s or 10 items).
    const metricNames = async () => {
      const { data } = await admin
        .from('monitoring_metrics')
        .select('metric_name, metadata')
        .eq('user_id', userId!);
      return new Set((data ?? []).map((row) => row.metric_name as string));
    };
    await expect
      .poll(async () => [...(await metricNames())].sort(), { timeout: 15_000 })
      .toEqual(['auth_event', 'page_view']);
    await context.close();
  });

  it('keeps the agents page and the selection page for visitors apart', async () => {
    const { page, context } = await newPage(e2e);
    // The rest of /dashboard stays protected.
    await page.goto('/dashboard/agents');
    await page.waitForURL((url) => url.pathname === '/auth');
    // The selection page is open to visitors without any selection.
    await page.goto('/dashboard/select-roles');
    await page.getByRole('heading', { name: 'Activate Security Agents' }).waitFor();
    await page.getByText('No agents selected: Please select at least one agent to proceed').first().waitFor();
    await page.getByText('You will sign in or create your account before checkout.').waitFor();
    await context.close();
  });
});
