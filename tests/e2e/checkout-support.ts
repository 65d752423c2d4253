// Steps shared by the agents and billing end-to-end suites (stack started with autoconfirm).
import type { Page } from 'playwright-core';
import { fillSignUpForm } from './sign-up.ts';

/** Signs a new customer up; with autoconfirm they land on the dashboard signed in. */
export async function signUpConfirmed(page: Page, prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.goto('/auth');
  await fillSignUpForm(page, {
    fullName: 'Katherine Johnson',
    company: 'Orbital Mechanics Inc',
    industry: 'Technology',
    email: email,
    password: 'trajectory-62',
  });
  await page.waitForURL((url) => url.pathname === '/dashboard');
  return email;
}

/** From /dashboard/agents: selects the named agents, checks out and pays with a test card. */
export async function selectAndCheckOut(
  page: Page,
  names: string[],
  card = '4242 4242 4242 4242',
): Promise<void> {
  await page.goto('/dashboard/agents');
  await page.getByRole('heading', { name: 'AI Security Agents' }).waitFor();
  for (const name of names) {
    await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  }
  await page.getByRole('button', { name: /^Activate Selected Agents/ }).click();
  await page.waitForURL('**/dashboard/select-roles');
  await page.getByRole('button', { name: 'Start 7-Day Free Trial' }).click();
  await page.waitForURL('**/_checkout/**');
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: 'Start free trial' }).click();
}
