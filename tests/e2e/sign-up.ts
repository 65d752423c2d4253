import type { Page } from 'playwright-core';
import type { E2E } from './harness.ts';

export interface NewCustomer {
  email: string;
  fullName: string;
  company: string;
  password: string;
}

/**
 * Signs a new customer up through the /auth form as a person would (the stack must autoconfirm) and
 * returns the user's id once the dashboard is reached.
 */
export async function signUpThroughForm(e2e: E2E, page: Page, customer: NewCustomer): Promise<string> {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Full Name').fill(customer.fullName);
  await page.getByLabel('Company Name').fill(customer.company);
  await page.getByRole('combobox', { name: 'Industry Type' }).click();
  await page.getByRole('option', { name: 'Technology' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(customer.email);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard');
  const { rows } = await e2e.stack.ctx.db.query<{ id: string }>(
    'select id from auth.users where email = $1',
    [customer.email],
  );
  return rows[0]!.id;
}
