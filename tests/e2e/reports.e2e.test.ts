// Security Reports (docs/product.md §2, §4, §5, §8): a customer creates a configuration (defaults, required
// name, Cancel), toggles it, generates a report now, sees it turn completed (green) once the agent
// worker has rendered it, and downloads the PDF through the browser's download. Without an active agent
// "Generate now" is refused with the way to activate one (docs/product.md §14).
import { readFile } from 'node:fs/promises';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activateAgents } from '../helpers/agents.ts';
import { reportWorker } from '../helpers/reports-support.ts';
import { type E2E, newPage, startE2E } from './harness.ts';
import { toast } from './locators.ts';
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
    fullName: 'Grace Hopper',
    company: 'Compiler Works Inc',
    password: 'cobol-1959',
  });

describe('Security Reports', () => {
  it('creates a configuration, generates a report now and downloads it', async () => {
    const { context, page } = await newPage(e2e);
    const userId = await signUp(page, 'grace-reports@example.com');
    await e2e.stack.ctx.db.query(
      `insert into public.findings (user_id, scanner, fingerprint, rule_id, title, severity, location, evidence, remediation)
       values ($1::uuid, 'webapp', md5($1::text) || 'abcdef', 'web.exposed.env', 'Environment file exposed', 'critical', 'https://shop.example/.env', 'DB_PASSWORD=hunter2', 'Block dotfiles.')`,
      [userId],
    );
    await page.goto('/dashboard/reports');
    await expect.poll(() => page.getByRole('heading', { name: 'Security Reports' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No reports yet').isVisible()).toBe(true);

    await page.getByRole('tab', { name: 'Report Configuration' }).click();
    await page.getByRole('button', { name: 'New Configuration' }).click();
    // Defaults: SOC Compliance, Daily, enabled.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Report type' }).textContent())
      .toBe('SOC Compliance');
    expect(await page.getByRole('combobox', { name: 'Schedule' }).textContent()).toBe('Daily');
    expect(await page.getByRole('switch', { name: 'Enabled' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await expect.poll(() => page.getByText('Name is required').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Save Configuration' }).count()).toBe(0);

    await page.getByRole('button', { name: 'New Configuration' }).click();
    await page.getByLabel('Name').fill('Board pack');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await expect.poll(() => toast(page, 'Configuration created').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Save Configuration' }).count()).toBe(0);
    const row = page.getByTestId('report-configuration').filter({ hasText: 'Board pack' });
    await expect.poll(() => row.isVisible()).toBe(true);

    // The toggle is saved at once.
    await row.getByRole('switch', { name: 'Enable Board pack' }).click();
    const enabled = async () =>
      (
        await e2e.stack.ctx.db.query<{ is_enabled: boolean }>(
          'select is_enabled from public.report_configurations where user_id = $1',
          [userId],
        )
      ).rows[0]?.is_enabled;
    await expect.poll(enabled).toBe(false);
    await expect.poll(() => row.getByText('Paused').isVisible()).toBe(true);

    // Reports are paid: without an agent the server refuses and says what to activate and where.
    await row.getByRole('button', { name: 'Generate now' }).click();
    const refused = toast(page, 'An active agent is needed');
    await expect
      .poll(() =>
        refused
          .getByText('Reports need an active security agent. Activate one on the Agents page.')
          .isVisible(),
      )
      .toBe(true);
    await activateAgents(e2e.stack.ctx.db, userId, ['cybersecurity_analyst']);

    await row.getByRole('button', { name: 'Generate now' }).click();
    await expect.poll(() => toast(page, 'Report generation started').isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Generated Reports' }).click();
    const report = page.getByTestId('generated-report').first();
    await expect.poll(() => report.locator('[data-status]').getAttribute('data-status')).toBe('generating');
    expect(await report.getByRole('button', { name: 'Download' }).count()).toBe(0);

    expect(await reportWorker(e2e.stack).runOnce()).toBe(1);
    await expect
      .poll(() => report.locator('[data-status]').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('completed');
    expect(await report.locator('[data-status]').getAttribute('class')).toContain('bg-green-600');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Download' }).click(),
    ]);
    await expect.poll(() => toast(page, 'Report download started').isVisible()).toBe(true);
    expect(download.suggestedFilename()).toMatch(/^vigil-report-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.pdf$/);
    const saved = await download.path();
    const bytes = await readFile(saved);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });
});
