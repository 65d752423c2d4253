// The second factor enforced by the backend (docs/product.md §15), seen from the browser: the password-only step
// sends nothing the database would refuse (no failed request, no console error), live alerts work right
// after the second step (realtime takes the aal2 token), the metrics recorded meanwhile arrive, and a
// password reset of a user with a factor passes the factor before the new password is accepted.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AUTH_MESSAGES } from '../../shared/messages.ts';
import { type E2E, latestMail, startE2E } from './harness.ts';
import {
  enrolTotp,
  newMfaPage,
  sessionAssurance,
  signInWithPassword,
  signOut,
  signUpAndConfirm,
  text,
  totpCode,
} from './mfa-support.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** Console errors and warnings, and refused API requests, from the moment this is called. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      problems.push(`console ${m.type()}: ${m.text()}`);
    }
  });
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && /^\/(rest|functions|storage|realtime)\/v1\//.test(path)) {
      problems.push(`${r.request().method()} ${path} → ${r.status()}`);
    }
  });
  return problems;
}

async function passSecondStep(page: Page, secret: string): Promise<void> {
  await page.getByLabel('Authenticator app code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Verify Code' }).click();
}

describe('a customer with an authenticator app', () => {
  it('signs in without a refused request, gets live alerts after the second step, and its metrics', async () => {
    const { page, context } = await newMfaPage(e2e);
    const email = `enforced-${Date.now()}@example.com`;
    const userId = await signUpAndConfirm(e2e, page, email);
    await page.goto('/dashboard/security-settings');
    const secret = await enrolTotp(page);
    await signOut(page);

    const problems = watchProblems(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/auth/mfa');
    await page.getByLabel('Authenticator app code').waitFor();
    // Long enough for a metrics flush (5 s) to have been attempted at aal1.
    await page.waitForTimeout(6_000);
    await passSecondStep(page, secret);
    await page.waitForURL('**/dashboard');
    expect((await sessionAssurance(e2e, page)).claim).toBe('aal2');

    // Live updates reach the page right away, without a reload (realtime switched to the aal2 token).
    await page.getByRole('link', { name: 'Alerts', exact: true }).first().click();
    await page.waitForURL('**/dashboard/alerts');
    const events = page.getByRole('region', { name: 'Security Events' });
    await page.getByRole('heading', { name: 'Security Alerts', level: 1 }).waitFor();
    await page.waitForTimeout(500);
    await e2e.stack.ctx.db.query(
      `insert into public.security_events (user_id, event_type, description, severity)
       values ($1, 'x', 'Live after the second step', 'critical')`,
      [userId],
    );
    await events.getByRole('button', { name: /Live after the second step$/ }).waitFor({ timeout: 10_000 });

    // The page views of the aal1 step waited in the queue and were written after it (none refused): the
    // queue tries again every 5 s.
    await expect
      .poll(
        async () =>
          (
            await e2e.stack.ctx.db.query<{ path: string }>(
              `select metadata ->> 'path' as path from public.monitoring_metrics
                where user_id = $1 and metric_name = 'page_view'`,
              [userId],
            )
          ).rows.map((r) => r.path),
        { timeout: 15_000 },
      )
      .toContain('/auth/mfa');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('resets a forgotten password only after the second factor', async () => {
    const { page, context } = await newMfaPage(e2e);
    const email = `enforced-reset-${Date.now()}@example.com`;
    await signUpAndConfirm(e2e, page, email);
    await page.goto('/dashboard/security-settings');
    const secret = await enrolTotp(page);
    await signOut(page);

    await page.goto('/auth/forgot-password');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Password Reset Email Sent' }).waitFor();
    const mail = await latestMail(e2e.stack, email);
    await page.goto(mail.links.find((url) => url.includes('/auth/v1/verify'))!);
    // The link proves the mailbox; the authenticator app comes next, then the new password.
    await page.waitForURL('**/auth/mfa');
    await passSecondStep(page, secret);
    await page.waitForURL('**/auth/reset-password');
    await page.getByLabel('New Password').fill('brand-new-secret-7');
    await page.getByLabel('Confirm Password').fill('brand-new-secret-7');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await text(page, 'Password Updated').waitFor();
    await page.waitForURL('**/dashboard');

    // The old password (mfa-support's PASSWORD) no longer signs in; the new one does, and asks for the
    // second step.
    await signOut(page);
    await signInWithPassword(page, email);
    await text(page, AUTH_MESSAGES.invalidCredentials).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('brand-new-secret-7');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/auth/mfa');
    await context.close();
  });
});
