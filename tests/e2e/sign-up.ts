import type { Page } from 'playwright-core';

import type { AgentRoleType } from '../../shared/constants.ts';
import { activateAgents, SCANNING_AGENTS } from '../helpers/agents.ts';
import type { E2E } from './harness.ts';

export interface NewCustomer {
  email: string;
  fullName: string;
  company: string;
  password: string;
}

export interface SignUpForm extends NewCustomer {
  /** One of the form's industries; Technology when left out. */
  industry?: string;
}

/** From /auth (sign-in view): switches to sign-up, fills every field as a person would and submits. */
export async function fillSignUpForm(page: Page, form: SignUpForm): Promise<void> {
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Create an Account' }).waitFor();
  await page.getByLabel('Full Name').fill(form.fullName);
  await page.getByLabel('Company Name').fill(form.company);
  await page.getByRole('combobox', { name: 'Industry Type' }).click();
  await page.getByRole('option', { name: form.industry ?? 'Technology' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(form.email);
  await page.getByLabel('Password', { exact: true }).fill(form.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/**
 * Signs a new customer up through the /auth form (the stack must autoconfirm) and returns the user's id
 * once the dashboard is reached.
 */
export async function signUpThroughForm(e2e: E2E, page: Page, customer: SignUpForm): Promise<string> {
  await page.goto('/auth');
  await fillSignUpForm(page, customer);
  await page.waitForURL('**/dashboard');
  const { rows } = await e2e.stack.ctx.db.query<{ id: string }>(
    'select id from auth.users where email = $1',
    [customer.email],
  );
  return rows[0]!.id;
}

/**
 * Signs a new customer up through the form and gives them trialing agents (by default ones covering every
 * scanner; none with `[]`). Returns the user's id.
 */
export async function signUpWithAgents(
  e2e: E2E,
  page: Page,
  customer: SignUpForm,
  agents: readonly AgentRoleType[] = SCANNING_AGENTS,
): Promise<string> {
  const userId = await signUpThroughForm(e2e, page, customer);
  if (agents.length > 0) {
    await activateAgents(e2e.stack.ctx.db, userId, agents);
  }
  return userId;
}
