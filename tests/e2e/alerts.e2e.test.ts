// Security Alerts (docs/product.md §2, §3, §7, §9): open events newest first (10), ML insights (5, confidence as a
// rounded percentage), pending recommendations (5), each opening its findings with evidence and
// remediation, and the customer's triage (accepted risk with expiry, false positive, reopen; fixed only
// by a retest). The rows are written as the agents write them (service role); the scanning suite covers
// a real scan producing them.
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

const signUp = (page: Page, email: string) =>
  signUpThroughForm(e2e, page, {
    email,
    fullName: 'Ada Lovelace',
    company: 'Analytical Engines',
    password: 'bernoulli-1843',
  });

const sql = (text: string, params: unknown[] = []) => e2e.stack.ctx.db.query(text, params);

async function finding(
  userId: string,
  n: number,
  extra: { status?: string; title?: string } = {},
): Promise<string> {
  const { rows } = await e2e.stack.ctx.db.query<{ id: string }>(
    `insert into public.findings (user_id, scanner, fingerprint, rule_id, title, severity, location, evidence, remediation, status, fixed_at)
     values ($1, 'webapp', $2, 'web.exposed.env', $3, 'critical', $4, 'DB_PASSWORD=hunter2', 'Block dotfiles at the web server.', $5,
       case when $5 = 'fixed' then now() end)
     returning id`,
    [
      userId,
      `fp-${userId}-${n}`.padEnd(16, '0').slice(0, 128),
      extra.title ?? `Exposed .env #${n}`,
      `https://shop.example/.env?${n}`,
      extra.status ?? 'open',
    ],
  );
  return rows[0]!.id;
}

async function seed(userId: string): Promise<void> {
  const open = await finding(userId, 0, { title: 'Environment file exposed' });
  const fixed = await finding(userId, 1, { status: 'fixed', title: 'Git metadata exposed' });
  for (let i = 1; i <= 12; i++) {
    await sql(
      `insert into public.security_events (user_id, event_type, description, severity, finding_id, created_at)
       values ($1, 'vulnerability_detected', $2, 'high', $3, now() - make_interval(mins => $4))`,
      [userId, `Event number ${i}`, i === 1 ? open : fixed, i],
    );
  }
  await sql(
    `insert into public.security_events (user_id, event_type, description, severity, status) values ($1, 'x', 'Resolved long ago', 'low', 'resolved')`,
    [userId],
  );
  for (let i = 1; i <= 6; i++) {
    await sql(
      `insert into public.ml_insights (user_id, title, description, insight_type, confidence_score, data, created_at)
       values ($1, $2, 'About your history', 'trend', $3, $4, now() - make_interval(mins => $5))`,
      [
        userId,
        `Insight ${i}`,
        i === 1 ? 0.874 : 0.5,
        JSON.stringify(i === 1 ? { rule_id: 'web.exposed.env' } : { z: 1 }),
        i,
      ],
    );
  }
  for (let i = 1; i <= 6; i++) {
    await sql(
      `insert into public.ai_security_recommendations (user_id, title, description, priority, category, status, steps, finding_id, created_at)
       values ($1, $2, 'Do this', 'high', $3, 'pending', $4, $5, now() - make_interval(mins => $6))`,
      [userId, `Recommendation ${i}`, `cause-${i}`, JSON.stringify([{ title: 'Deny dotfiles' }]), open, i],
    );
  }
  await sql(
    `insert into public.ai_security_recommendations (user_id, title, description, priority, category, status) values ($1, 'Already done', 'x', 'low', 'done', 'completed')`,
    [userId],
  );
}

describe('security alerts', () => {
  it('lists open events, insights and pending recommendations within their limits', async () => {
    const { page, context } = await newPage(e2e, { width: 360, height: 740 });
    const userId = await signUp(page, `ada-${Date.now()}@example.com`);
    await seed(userId);
    // Another customer's rows are never shown (row-level security).
    const { rows } = await e2e.stack.ctx.db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role) values (gen_random_uuid(), $1, 'authenticated', 'authenticated') returning id`,
      [`other-${Date.now()}@example.com`],
    );
    await sql(
      `insert into public.security_events (user_id, event_type, description, severity) values ($1, 'x', 'Someone else''s event', 'critical')`,
      [rows[0]!.id],
    );

    await page.goto('/dashboard/alerts');
    await page.getByRole('heading', { name: 'Security Alerts', level: 1 }).waitFor();
    const events = page.getByRole('region', { name: 'Security Events' });
    await events.getByRole('button', { name: /Event number 1$/ }).waitFor();
    const eventLabels = await Promise.all(
      (await events.getByRole('button').all()).map((b) => b.getAttribute('aria-label')),
    );
    expect(eventLabels).toEqual(Array.from({ length: 10 }, (_, i) => `high event: Event number ${i + 1}`));
    expect(await page.getByText("Someone else's event").count()).toBe(0);
    expect(await page.getByText('Resolved long ago').count()).toBe(0);

    const insights = page.getByRole('region', { name: 'ML Insights' });
    await insights.getByText('87% confidence').waitFor();
    expect(await insights.getByRole('button').count()).toBe(5);
    const recommendations = page.getByRole('region', { name: 'Security Recommendations' });
    await recommendations.getByRole('button', { name: 'Recommendation: Recommendation 1' }).waitFor();
    expect(await recommendations.getByRole('button').count()).toBe(5);
    expect(await page.getByText('Already done').count()).toBe(0);

    // An insight about one rule opens the findings of that rule, by keyboard.
    await insights.getByRole('button', { name: 'Insight: Insight 1' }).focus();
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog');
    await sheet.getByRole('article', { name: 'Environment file exposed' }).waitFor();
    await sheet.getByRole('article', { name: 'Git metadata exposed' }).waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // The agents recompute insights and recommendations after a scan: the page shows them live.
    await sql(
      `insert into public.ml_insights (user_id, title, description, insight_type, confidence_score, data)
       values ($1, 'Live insight', 'Computed just now', 'trend', 0.91, '{}')`,
      [userId],
    );
    await sql(
      `insert into public.ai_security_recommendations (user_id, title, description, priority, category, status)
       values ($1, 'Live recommendation', 'Do this now', 'high', 'live-cause', 'pending')`,
      [userId],
    );
    await insights.getByRole('button', { name: 'Insight: Live insight' }).waitFor({ timeout: 10_000 });
    await recommendations
      .getByRole('button', { name: 'Recommendation: Live recommendation' })
      .waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('triages a finding: accepted risk with expiry, reopen, false positive; fixed is automatic', async () => {
    const { page, context } = await newPage(e2e);
    const userId = await signUp(page, `ada2-${Date.now()}@example.com`);
    await seed(userId);
    await page.goto('/dashboard/alerts');
    const events = page.getByRole('region', { name: 'Security Events' });
    await events.getByRole('button', { name: /Event number 1$/ }).click();
    const article = page.getByRole('dialog').getByRole('article', { name: 'Environment file exposed' });
    await article.getByRole('heading', { name: 'Evidence' }).waitFor();
    expect(await article.textContent()).toContain('DB_PASSWORD=hunter2');
    expect(await article.textContent()).toContain('Block dotfiles at the web server.');

    // A date beyond a year is refused before any call.
    await article.getByLabel('Accept risk until').fill('2099-01-01');
    await article.getByRole('button', { name: 'Accept Risk' }).click();
    await article.getByText('A risk can be accepted for at most a year.').waitFor();

    const inMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await article.getByLabel('Accept risk until').fill(inMonth);
    await article.getByRole('button', { name: 'Accept Risk' }).click();
    await article.getByText('Accepted risk', { exact: true }).waitFor();
    await article.getByText(/accepted until/).waitFor();
    const accepted = await e2e.stack.ctx.db.query<{ status: string; accepted_until: string }>(
      `select status, accepted_until::text from public.findings where user_id = $1 and title = 'Environment file exposed'`,
      [userId],
    );
    expect(accepted.rows[0]).toMatchObject({ status: 'accepted_risk' });
    expect(accepted.rows[0]!.accepted_until.slice(0, 10)).toBe(inMonth);

    await article.getByRole('button', { name: 'Reopen' }).click();
    await article.getByText('Open', { exact: true }).waitFor();
    await article.getByRole('button', { name: 'False Positive' }).click();
    await article.getByText('False positive', { exact: true }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // The fixed finding offers no manual triage.
    await events.getByRole('button', { name: /Event number 2$/ }).click();
    const fixed = page.getByRole('dialog').getByRole('article', { name: 'Git metadata exposed' });
    await fixed.getByText('Fixed: the latest scan no longer sees this issue.').waitFor();
    expect(await fixed.getByRole('button').count()).toBe(0);
    await context.close();
  });
});
