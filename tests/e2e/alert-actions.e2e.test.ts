// Closing alerts by hand (docs/product.md §11): "Mark resolved" on a security event and "Mark
// implemented" on a recommendation, through the alerts page as a person does it, by mouse and keyboard.
// With automatic remediation off (the default) both close at once; on, a recommendation waits for the
// agents' verification scan. A failed call keeps the sheet to retry; an alert closed meanwhile is said to be.
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
    fullName: 'Grace Hopper',
    company: 'Navy Labs',
    password: 'cobol-1959-harbor',
  });

/** One open event and one pending recommendation, written as the agents write them (service role). */
async function seed(userId: string): Promise<{ event: string; recommendation: string }> {
  const event = await sql<{ id: string }>(
    `insert into public.security_events (user_id, event_type, description, severity)
     values ($1, 'vulnerability_detected', 'Admin panel exposed', 'high') returning id`,
    [userId],
  );
  const recommendation = await sql<{ id: string }>(
    `insert into public.ai_security_recommendations (user_id, title, description, priority, category, status)
     values ($1, 'Restrict the admin panel', 'Allow only the office network', 'high', 'admin-panel', 'pending')
     returning id`,
    [userId],
  );
  return { event: event.rows[0]!.id, recommendation: recommendation.rows[0]!.id };
}

const eventRow = (page: Page) =>
  page
    .getByRole('region', { name: 'Security Events' })
    .getByRole('button', { name: 'high event: Admin panel exposed' });
const recommendationRow = (page: Page) =>
  page
    .getByRole('region', { name: 'Security Recommendations' })
    .getByRole('button', { name: 'Recommendation: Restrict the admin panel' });

describe('closing alerts by hand', () => {
  it('resolves an event by keyboard and completes a recommendation (automatic remediation off)', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, 'resolve');
    const ids = await seed(userId);
    await page.goto('/dashboard/alerts');

    // Keyboard only: open the event, reach the action, press it.
    await eventRow(page).focus();
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: 'Admin panel exposed' });
    const resolve = sheet.getByRole('button', { name: 'Mark resolved' });
    await resolve.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Alert resolved', { exact: true }).waitFor();
    await sheet.waitFor({ state: 'detached' });
    await page.getByText('No open security events.').waitFor();
    const event = await sql<{ status: string; resolved_by: string; resolved: boolean }>(
      `select status, resolved_by, resolved_at is not null as resolved from public.security_events where id = $1`,
      [ids.event],
    );
    expect(event.rows[0]).toEqual({ status: 'resolved', resolved_by: 'user', resolved: true });

    await recommendationRow(page).click();
    await page
      .getByRole('dialog', { name: 'Restrict the admin panel' })
      .getByRole('button', { name: 'Mark implemented' })
      .click();
    await page.getByText('Recommendation completed', { exact: true }).waitFor();
    await page.getByText('No pending recommendations.').waitFor();
    const recommendation = await sql<{ status: string; completed_by: string }>(
      `select status, completed_by from public.ai_security_recommendations where id = $1`,
      [ids.recommendation],
    );
    expect(recommendation.rows[0]).toEqual({ status: 'completed', completed_by: 'user' });

    // Both stay closed after a reload.
    await page.reload();
    await page.getByText('No open security events.').waitFor();
    await page.getByText('No pending recommendations.').waitFor();
    await context.close();
  });

  it('asks the agents to verify a recommendation when automatic remediation is on', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, 'verify');
    const ids = await seed(userId);
    await sql(
      `insert into public.user_settings (user_id, automatic_remediation) values ($1, true)
       on conflict (user_id) do update set automatic_remediation = true`,
      [userId],
    );
    await page.goto('/dashboard/alerts');
    await recommendationRow(page).click();
    await page
      .getByRole('dialog', { name: 'Restrict the admin panel' })
      .getByRole('button', { name: 'Mark implemented' })
      .click();
    await page.getByText('Verification scan requested', { exact: true }).waitFor();
    await page.getByText('No pending recommendations.').waitFor();
    const recommendation = await sql<{ status: string; requested: boolean; completed: boolean }>(
      `select status, verification_requested_at is not null as requested, completed_at is not null as completed
       from public.ai_security_recommendations where id = $1`,
      [ids.recommendation],
    );
    expect(recommendation.rows[0]).toEqual({ status: 'in_progress', requested: true, completed: false });
    await context.close();
  });

  it('keeps the sheet to retry after a failed call, and loses nothing', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, 'offline');
    const ids = await seed(userId);
    await page.goto('/dashboard/alerts');
    await eventRow(page).click();
    const sheet = page.getByRole('dialog', { name: 'Admin panel exposed' });
    const resolve = sheet.getByRole('button', { name: 'Mark resolved' });
    // The connection drops for this call.
    await page.route('**/rest/v1/rpc/resolve_security_event', (route) => route.abort('connectionfailed'));
    await resolve.click();
    await page.getByText('Not saved', { exact: true }).waitFor();
    expect(await sheet.isVisible()).toBe(true);
    await expect.poll(() => resolve.isEnabled()).toBe(true);
    const before = await sql<{ status: string }>(`select status from public.security_events where id = $1`, [
      ids.event,
    ]);
    expect(before.rows[0]).toEqual({ status: 'open' });
    // Back online, the same button does it.
    await page.unroute('**/rest/v1/rpc/resolve_security_event');
    await resolve.click();
    await page.getByText('Alert resolved', { exact: true }).waitFor();
    await page.getByText('No open security events.').waitFor();
    await context.close();
  });

  it('says so when the alert was closed meanwhile, refreshes the list, and changes nothing', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, 'stale');
    const ids = await seed(userId);
    await page.goto('/dashboard/alerts');
    await recommendationRow(page).click();
    const sheet = page.getByRole('dialog', { name: 'Restrict the admin panel' });
    const implemented = sheet.getByRole('button', { name: 'Mark implemented' });
    await implemented.waitFor();
    // An agent's verification closes it while the sheet is open.
    await sql(
      `update public.ai_security_recommendations set status = 'completed', completed_at = now(),
         completed_by = 'agent', resolution = 'Verified fixed by a scan' where id = $1`,
      [ids.recommendation],
    );
    await implemented.click();
    await page.getByText('Not saved', { exact: true }).waitFor();
    await page.getByText('This alert is no longer open').first().waitFor();
    await sheet.waitFor({ state: 'detached' });
    await page.getByText('No pending recommendations.').waitFor();
    const recommendation = await sql<{ completed_by: string; resolution: string }>(
      `select completed_by, resolution from public.ai_security_recommendations where id = $1`,
      [ids.recommendation],
    );
    expect(recommendation.rows[0]).toEqual({ completed_by: 'agent', resolution: 'Verified fixed by a scan' });
    await context.close();
  });
});
