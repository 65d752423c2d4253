// The dashboard shell (SPEC point 2): navigation, the mobile overlay, settings toggles and the theme.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { fillSignUpForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  // Auto-confirm skips the e-mail round trip, which auth.e2e.test.ts covers.
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(page: Page): Promise<void> {
  await page.goto('/auth');
  await fillSignUpForm(page, {
    fullName: 'Alan Turing',
    company: 'Bletchley Labs',
    industry: 'Government',
    email: `alan-${Date.now()}@example.com`,
    password: 'enigma-1234',
  });
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { name: 'Welcome back, Alan Turing' }).waitFor();
}

describe('dashboard shell', () => {
  it('highlights the current page and keeps the settings toggles local', async () => {
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
});
