// The dashboard shell (docs/product.md §2): navigation, the mobile overlay, settings saved per user and the theme.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { signUpThroughForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  // Auto-confirm skips the e-mail round trip, which auth.e2e.test.ts covers.
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(page: Page): Promise<void> {
  await signUpThroughForm(e2e, page, {
    fullName: 'Alan Turing',
    company: 'Bletchley Labs',
    industry: 'Government',
    email: `alan-${Date.now()}@example.com`,
    password: 'enigma-1234',
  });
  await page.getByRole('heading', { name: 'Welcome back, Alan Turing' }).waitFor();
}

describe('dashboard shell', () => {
  it('highlights the current page and saves the settings toggles per user', async () => {
    const { page, context } = await newPage(e2e);
    await signedIn(page);
    const nav = page.getByRole('navigation', { name: 'Dashboard', exact: true });
    expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    const states = await Promise.all(
      ['Email Notifications', 'Real-time Alerts', 'Automatic Remediation', 'Webhook Notifications'].map(
        (name) => page.getByRole('switch', { name }).getAttribute('aria-checked'),
      ),
    );
    expect(states).toEqual(['true', 'true', 'false', 'false']);

    // Saved per user in user_settings: they survive a reload, and the webhook URL must be https.
    await page.getByRole('switch', { name: 'Automatic Remediation' }).click();
    await page.getByRole('switch', { name: 'Webhook Notifications' }).click();
    await page.getByLabel('Webhook URL').fill('http://insecure.example.com/hook');
    await page.getByRole('button', { name: 'Save URL' }).click();
    await page.getByText('Please enter a valid https:// URL').waitFor();
    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/vigil');
    await page.getByRole('button', { name: 'Save URL' }).click();
    await page.getByText('Webhook URL saved').first().waitFor();
    await page.reload();
    await page.getByLabel('Webhook URL').waitFor();
    expect(
      await page.getByRole('switch', { name: 'Automatic Remediation' }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe('https://hooks.example.com/vigil');
    const { rows } = await e2e.stack.ctx.db.query<{ automatic_remediation: boolean; webhook_url: string }>(
      `select s.automatic_remediation, s.webhook_url from public.user_settings s
       join auth.users u on u.id = s.user_id where u.email like 'alan-%' order by s.updated_at desc limit 1`,
    );
    expect(rows[0]).toEqual({ automatic_remediation: true, webhook_url: 'https://hooks.example.com/vigil' });

    await page.getByLabel('Theme').selectOption('light');
    expect(await page.locator('html').getAttribute('class')).toContain('light');
    expect(await page.evaluate('localStorage.getItem("ui-theme")')).toBe('light');
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.locator('html').getAttribute('class')).toContain('light');
    await context.close();
  });

  it('opens the mobile overlay and closes it on choosing an item or Sign Out', async () => {
    const { page, context } = await newPage(e2e, { width: 360, height: 740 });
    await signedIn(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const overlay = page.getByRole('navigation', { name: 'Dashboard mobile' });
    await overlay.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await overlay.count()).toBe(0);

    await page.goto('/dashboard/help');
    for (const title of ['Live Chat Support', 'Email Support', 'Documentation']) {
      await page.getByRole('heading', { name: title }).waitFor();
    }
    expect(await page.getByRole('link', { name: 'Send Email' }).getAttribute('href')).toMatch(/^mailto:/);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await overlay.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByText('Signed out successfully', { exact: true }).first().waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('lets signed-in users chat with the simulated agent', async () => {
    const { page, context } = await newPage(e2e);
    await signedIn(page);
    await page.getByRole('button', { name: 'Open support chat' }).click();
    const input = page.getByPlaceholder('Type your message...');
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);
    await input.fill('Hello');
    await input.press('Shift+Enter');
    expect(await input.inputValue()).toBe('Hello\n');
    await input.press('Enter');
    await page.getByTestId('typing-indicator').waitFor();
    await page.getByTestId('typing-indicator').waitFor({ state: 'detached' });
    const log = page.getByRole('log', { name: 'Chat messages' });
    expect(await log.locator('p').count()).toBe(2);
    await context.close();
  });

  it("summarises the customer's open alerts by severity and the new findings per day", async () => {
    const { page, context } = await newPage(e2e);
    await signedIn(page);
    const summary = page.getByRole('region', { name: 'Security summary' });
    await summary.getByText('No scans yet.').waitFor();
    const { rows } = await e2e.stack.ctx.db.query<{ id: string }>(
      "select id from auth.users where raw_user_meta_data->>'full_name' = 'Alan Turing' order by created_at desc limit 1",
    );
    const userId = rows[0]!.id;
    // Two open (one critical, one high), one fixed today, one open but first seen long before the window.
    await e2e.stack.ctx.db.query(
      `insert into public.findings (user_id, scanner, fingerprint, rule_id, title, severity, location, status, fixed_at, first_seen)
       values ($1, 'webapp', 'summary-fp-0000001', 'r1', 'SQL injection', 'critical', 'https://a.test/', 'open', null, now()),
              ($1, 'webapp', 'summary-fp-0000002', 'r2', 'Weak TLS', 'high', 'https://a.test/', 'open', null, now()),
              ($1, 'webapp', 'summary-fp-0000003', 'r3', 'Old header', 'low', 'https://a.test/', 'fixed', now(), now()),
              ($1, 'webapp', 'summary-fp-0000004', 'r4', 'Old finding', 'medium', 'https://a.test/', 'open', null, now() - interval '60 days')`,
      [userId],
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Open alerts' }).waitFor();
    const openCard = summary.getByRole('listitem');
    await expect
      .poll(async () => (await openCard.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ')))
      .toEqual(['Critical 1', 'High 1', 'Medium 1', 'Low 0', 'Info 0']);
    expect(await summary.getByText('3', { exact: true }).count()).toBe(1);
    expect(await summary.getByRole('img').getAttribute('aria-label')).toMatch(/^3 new findings in 14 days: /);
    // Skeletons hold each figure's place: nothing moved while the data loaded (layout shifts since load).
    const shifted = await page.evaluate<number>(`new Promise((resolve) => {
      new PerformanceObserver((list) => resolve(list.getEntries().reduce((sum, e) => sum + e.value, 0)))
        .observe({ type: 'layout-shift', buffered: true });
      setTimeout(() => resolve(0), 500);
    })`);
    expect(shifted).toBeLessThan(0.01);
    await context.close();
  });
});
