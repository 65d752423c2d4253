// The alert sheet's close actions ("Mark resolved", "Mark implemented") beyond alert-actions.e2e.test.ts:
// their accessible names say which alert they close, Tab reaches them and Space presses them, and an
// alert removed by someone else between load and click is said to be gone without touching anything else.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { signUpThroughForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

const sql = <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
  e2e.stack.ctx.db.query<R>(text, params);

const signUp = (page: Page, tag: string) =>
  signUpThroughForm(e2e, page, {
    email: `${tag}-${Date.now()}@example.com`,
    fullName: 'Ada Lovelace',
    company: 'Analytical Engines',
    password: 'bernoulli-1843-loom',
  });

/** An open security event written as the agents write it (service role). */
async function seedEvent(userId: string, description: string): Promise<string> {
  const event = await sql<{ id: string }>(
    `insert into public.security_events (user_id, event_type, description, severity)
     values ($1, 'vulnerability_detected', $2, 'high') returning id`,
    [userId, description],
  );
  return event.rows[0]!.id;
}

async function seedRecommendation(userId: string, title: string): Promise<string> {
  const recommendation = await sql<{ id: string }>(
    `insert into public.ai_security_recommendations (user_id, title, description, priority, category, status)
     values ($1, $2, 'Allow only the office network', 'high', 'admin-panel', 'pending') returning id`,
    [userId, title],
  );
  return recommendation.rows[0]!.id;
}

/** Presses Tab until the element labelled `label` has the focus (at most `limit` times), as a person would. */
async function tabTo(page: Page, label: string, limit = 15): Promise<void> {
  for (let n = 0; n < limit; n += 1) {
    // Guard: count() first, so a moment with nothing focused does not wait out the locator's timeout.
    const focused = page.locator(':focus');
    if ((await focused.count()) === 1 && (await focused.getAttribute('aria-label')) === label) {
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab did not reach "${label}" in ${limit} presses`);
}

describe('alert sheet actions by keyboard and their names', () => {
  it('names the alert each action closes; Tab reaches it and Space presses it', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, 'names');
    const database = await seedEvent(userId, 'Database port open to the internet');
    const tls = await seedEvent(userId, 'TLS certificate expires in 3 days');
    const recommendation = await seedRecommendation(userId, 'Close the database port');
    await page.goto('/dashboard/alerts');
    const events = page.getByRole('region', { name: 'Security Events' });

    // Keyboard only: focus the TLS row, open it, Tab to its action (named for this alert, not the other).
    await events.getByRole('button', { name: 'high event: TLS certificate expires in 3 days' }).focus();
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: 'TLS certificate expires in 3 days' });
    const resolve = sheet.getByRole('button', {
      name: 'Mark resolved: TLS certificate expires in 3 days',
      exact: true,
    });
    await tabTo(page, 'Mark resolved: TLS certificate expires in 3 days');
    expect(await resolve.isVisible()).toBe(true);
    await page.keyboard.press('Space');
    await page.getByText('Alert resolved', { exact: true }).waitFor();
    await sheet.waitFor({ state: 'detached' });
    await events.getByRole('button', { name: 'high event: TLS certificate expires in 3 days' }).waitFor({
      state: 'detached',
    });
    const rows = await sql<{ id: string; status: string; resolved_by: string | null }>(
      `select id, status, resolved_by from public.security_events where user_id = $1`,
      [userId],
    );
    // Only the alert the action named was resolved.
    expect(rows.rows.find((r) => r.id === tls)).toMatchObject({ status: 'resolved', resolved_by: 'user' });
    expect(rows.rows.find((r) => r.id === database)).toMatchObject({ status: 'open', resolved_by: null });

    // The recommendation's action is named for it too, and works by keyboard.
    await page
      .getByRole('region', { name: 'Security Recommendations' })
      .getByRole('button', { name: 'Recommendation: Close the database port' })
      .focus();
    await page.keyboard.press('Enter');
    const implemented = page
      .getByRole('dialog', { name: 'Close the database port' })
      .getByRole('button', { name: 'Mark implemented: Close the database port', exact: true });
    await tabTo(page, 'Mark implemented: Close the database port');
    expect(await implemented.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByText('Recommendation completed', { exact: true }).waitFor();
    const done = await sql<{ status: string; completed_by: string }>(
      `select status, completed_by from public.ai_security_recommendations where id = $1`,
      [recommendation],
    );
    expect(done.rows[0]).toEqual({ status: 'completed', completed_by: 'user' });
    await context.close();
  });

  it('says an alert removed meanwhile is gone, refreshes the list and leaves the others alone', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, 'removed');
    const removed = await seedEvent(userId, 'Debug endpoint exposed');
    const kept = await seedEvent(userId, 'Directory listing enabled');
    await page.goto('/dashboard/alerts');
    const events = page.getByRole('region', { name: 'Security Events' });
    await events.getByRole('button', { name: 'high event: Debug endpoint exposed' }).click();
    const sheet = page.getByRole('dialog', { name: 'Debug endpoint exposed' });
    const resolve = sheet.getByRole('button', { name: 'Mark resolved: Debug endpoint exposed' });
    await resolve.waitFor();
    // Someone else (the service, another session's account deletion) removes the row before the click.
    await sql(`delete from public.security_events where id = $1`, [removed]);
    await resolve.click();
    await page.getByText('Not saved', { exact: true }).waitFor();
    await page.getByText('This alert is no longer open').first().waitFor();
    await sheet.waitFor({ state: 'detached' });
    await events
      .getByRole('button', { name: 'high event: Debug endpoint exposed' })
      .waitFor({ state: 'detached' });
    // The other alert is still listed, still open, and its action still works.
    await events.getByRole('button', { name: 'high event: Directory listing enabled' }).click();
    await page
      .getByRole('dialog', { name: 'Directory listing enabled' })
      .getByRole('button', { name: 'Mark resolved: Directory listing enabled' })
      .click();
    await page.getByText('Alert resolved', { exact: true }).waitFor();
    const row = await sql<{ status: string }>(`select status from public.security_events where id = $1`, [
      kept,
    ]);
    expect(row.rows[0]).toEqual({ status: 'resolved' });
    await context.close();
  });
});
