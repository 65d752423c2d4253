// What a visitor sees on the public pages, the route guards and the not-found screen (docs/product.md §2).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  ({ page } = await newPage(e2e));
});
afterAll(async () => {
  await e2e?.close();
});

describe('landing page', () => {
  it('shows the header, hero, stats, agents, testimonials and footer', async () => {
    await page.goto('/?utm_source=test&code=abc');
    await page.getByRole('heading', { name: 'Choose Your Security Agents' }).waitFor();
    expect(await page.title()).toBe('Vigil | Autonomous AI Cybersecurity Agents for Businesses');
    // The query string is cleared after load.
    await page.waitForFunction('window.location.search === ""');
    for (const stat of ['1,000+', '50M+', '<1s', '24/7']) {
      await page.getByText(stat, { exact: true }).first().waitFor();
    }
    await page.getByTestId('agent-card').first().waitFor();
    expect(await page.getByTestId('agent-card').count()).toBeGreaterThanOrEqual(7);
    const cloud = page.getByTestId('cloud-security-card');
    await cloud.getByText('Cloud Security').waitFor();
    await cloud.getByText('$399').waitFor();
    await page.getByText('Trusted by Security-Conscious Teams').waitFor();
    for (const href of [
      '/about',
      '/careers',
      '/blog',
      '/contact',
      '/documentation',
      '/help',
      '/security',
      '/privacy',
      '/terms',
    ]) {
      expect(await page.locator(`footer a[href="${href}"]`).count()).toBe(1);
    }
  });

  it('clears the footer e-mail field on submit and sends nothing', async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const field = page.locator('#footer-email');
    await field.fill('someone@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForFunction('document.querySelector("#footer-email").value === ""');
    expect(requests.filter((url) => !url.includes('/assets/'))).toEqual([]);
  });

  it('links Get Started to /auth and Schedule Demo to /demo', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Schedule Demo' }).click();
    await page.getByRole('heading', { name: 'Schedule Your Business Security Demo' }).waitFor();
    for (const tile of ['15-Minute Demo', 'Security Analysis', 'Custom Solutions']) {
      await page.getByText(tile, { exact: true }).waitFor();
    }
    await page.goto('/');
    await page.locator('header').getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/auth');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  });
});

describe('legal and information pages', () => {
  it('show Last Updated today and Back to Home', async () => {
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    for (const [path, title] of [
      ['/privacy', 'Privacy Policy'],
      ['/terms', 'Terms of Service'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await page.getByText(`Last Updated: ${today}`).waitFor();
    }
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    for (const [path, title] of [
      ['/about', 'About Vigil'],
      ['/security', 'Security at Vigil'],
      ['/help', 'Help Center'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    }
  });
});

describe('not found and guards', () => {
  it('shows Page Not Found with Return to Home and Go Back', async () => {
    await page.goto('/terms');
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await page.waitForURL('**/terms');
    await page.goto('/nonexistent-slug');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('button', { name: 'Return to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('sends signed-out visitors from the dashboard to /auth', async () => {
    await page.goto('/dashboard/settings');
    await page.waitForURL('**/auth');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  });
});

describe('support page', () => {
  it('shows the status panel and validates, then submits a ticket', async () => {
    await page.goto('/support');
    for (const name of ['Core Security', 'AI Agents', 'Threat Detection', 'Monitoring']) {
      await page.getByText(name, { exact: true }).waitFor();
    }
    await page.getByText('< 15 minutes').waitFor();
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await page.getByText('Please select a priority').waitFor();
    await page.getByText('Subject is required').waitFor();
    await page.getByText('Description is required').waitFor();
    await page.getByRole('combobox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'High' }).click();
    await page.getByLabel('Subject').fill('VPN alerts');
    await page.getByLabel('Description').fill('We see repeated alerts from the VPN gateway.');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await page.getByText('Ticket Submitted', { exact: true }).waitFor();
    await page.getByText("We'll get back to you shortly.", { exact: true }).waitFor();
  });
});

describe('chat widget', () => {
  it('greets once and asks signed-out visitors to sign in', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open support chat' }).click();
    await page.getByRole('dialog').getByText('Vigil Support').waitFor();
    await page.getByText('Our team is ready to assist you!', { exact: true }).waitFor();
    await page.getByText('Please sign in to chat with our support team').waitFor();
    const input = page.getByPlaceholder('Sign in to chat with us');
    expect(await input.isDisabled()).toBe(true);
  });
});
