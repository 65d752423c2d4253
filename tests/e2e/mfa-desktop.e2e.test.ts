// The biometric second factor in the desktop app (docs/product.md §16): the desktop renderer (app://vigil cannot run
// WebAuthn) opens the relay page in the system browser through the real main-process bridge; the browser page
// runs the ceremony on the web origin (http://localhost:<port>, with the DevTools virtual authenticator) and
// its "Return to Vigil" vigil:// link goes through the real deep-link router back to the waiting desktop page.
import { decodeJwt } from 'jose';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_DEEP_LINK_LENGTH } from '../../shared/deep-links.ts';
import { client } from '../helpers/stack.ts';
import { type DesktopHarness, installDesktopBridge } from './desktop-bridge.ts';
import { type E2E, startE2E } from './harness.ts';
import { localhostUrl, type MfaPage, newMfaPage, PASSWORD } from './mfa-support.ts';
import { saveScreenshot } from './screenshots.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

interface Desktop {
  context: BrowserContext;
  page: Page;
  main: DesktopHarness;
}

/** The desktop renderer: window.vigil over the real main-process modules (see desktop-bridge.ts). */
async function desktop({ fakeClock = false } = {}): Promise<Desktop> {
  const context = await e2e.browser.newContext({
    baseURL: e2e.stack.url,
    viewport: { width: 1280, height: 900 },
  });
  if (fakeClock) {
    // Time runs as usual; the test may jump it forward to the challenge's expiry.
    await context.clock.install();
  }
  const holder: { page?: Page } = {};
  const main = await installDesktopBridge(context, e2e.stack.url, () => holder.page!);
  const page = (holder.page = await context.newPage());
  page.on('load', () => main.router.markReady());
  return { context, page, main };
}

async function newUser(tag: string): Promise<string> {
  const email = `${tag}-${Date.now()}@example.com`;
  const { error } = await client(e2e.stack, 'service_role').auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: { full_name: 'Grace Desktop', company_name: 'Cobol Ltd', industry_type: 'Technology' },
  });
  expect(error).toBeNull();
  return email;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** The relay URL the renderer asked the main process to open (the `n`th, counting from 1). */
async function openedRelay(main: DesktopHarness, n: number): Promise<string> {
  await expect.poll(() => main.opened.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(n);
  const url = main.opened[n - 1]!;
  expect(url.startsWith(`${localhostUrl(e2e)}/auth/webauthn-relay#mode=`)).toBe(true);
  // The request rides in the fragment only: nothing of it reaches the web server's logs.
  expect(new URL(url).search).toBe('');
  return url;
}

/** Plays the system browser: opens the relay, confirms, and returns the "Return to Vigil" link. */
async function confirmInBrowser(browser: MfaPage, relay: string, label: string): Promise<string> {
  // A fresh document, as the system browser opens a new tab: only the fragment would differ otherwise.
  await browser.page.goto('about:blank');
  await browser.page.goto(relay);
  await browser.page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
  // The request left the address bar as soon as the page read it.
  expect(new URL(browser.page.url()).hash).toBe('');
  await saveScreenshot(browser.page, `desktop biometric relay ${label}`);
  await browser.page.getByRole('button', { name: 'Confirm with biometrics' }).click();
  const back = browser.page.getByRole('link', { name: 'Return to Vigil' });
  await back.waitFor();
  await browser.page.getByText('Confirmed. You can close this tab.').waitFor();
  const href = (await back.getAttribute('href')) ?? '';
  expect(href.startsWith('vigil://auth/webauthn?state=')).toBe(true);
  expect(href.length).toBeLessThanOrEqual(MAX_DEEP_LINK_LENGTH);
  return href;
}

/** The session the desktop keeps in its vault, decoded. */
function vaultSession(main: DesktopHarness) {
  const key = [...main.disk.keys()].find((k) => /^sb-[a-z0-9-]+-auth-token$/.test(k));
  const raw = key ? main.vault.getItem(key) : null;
  const token = (JSON.parse(raw ?? '{}') as { access_token?: string }).access_token ?? '';
  return decodeJwt(token) as { aal?: string; amr?: { method: string }[] };
}

describe('the relay page', () => {
  it('runs no ceremony for an incomplete link or a relying party its host may not use', async () => {
    const browser = await newMfaPage(e2e);
    const { page } = browser;
    await page.goto('/auth/webauthn-relay');
    await page.getByTestId('relay-invalid').getByText('This link cannot be used').waitFor();
    const state = 'Q'.repeat(43);
    const options = Buffer.from(
      JSON.stringify({
        rpId: 'vigil.dev',
        challenge: 'x7sVhQk3lG0mH6b1QfC2pYwq8aZJtN4u5eRkLdSoIvM',
        allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key' }],
      }),
    ).toString('base64url');
    await page.goto('about:blank');
    await page.goto(`/auth/webauthn-relay#mode=authenticate&state=${state}&options=${options}`);
    await page.getByTestId('relay-invalid').getByText('this page may not confirm for vigil.dev').waitFor();
    await expect(page.getByRole('button', { name: 'Confirm with biometrics' }).count()).resolves.toBe(0);
    await browser.context.close();
  });
});

describe('biometric second factor in the desktop app', () => {
  it('registers through the system browser, then signs in to aal2 the same way', async () => {
    const { context, page, main } = await desktop();
    const browser = await newMfaPage(e2e);
    const email = await newUser('desk-bio');
    await signIn(page, email);
    await page.waitForURL('**/dashboard');

    await page.goto('/auth/biometric-setup');
    await page.getByRole('button', { name: 'Register Biometric' }).click();
    const relay = await openedRelay(main, 1);
    await page.getByTestId('webauthn-handoff').getByText('Continue in your browser').waitFor();
    await saveScreenshot(page, 'desktop biometric waiting for the browser');

    const registered = await confirmInBrowser(browser, relay, 'register');
    expect(main.router.handle(registered)).toBe(true);
    await page.getByTestId('biometric-success').getByText('Biometric Setup Complete').waitFor();
    expect(vaultSession(main).aal).toBe('aal2');
    const { credentials } = await browser.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: browser.authenticatorId,
    });
    expect(credentials).toHaveLength(1);

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await signIn(page, email);
    await page.waitForURL('**/auth/mfa');
    expect(vaultSession(main).aal).toBe('aal1');
    await page.getByRole('button', { name: 'Verify with Biometrics' }).click();
    const challenge = await openedRelay(main, 2);
    expect(challenge).toContain('#mode=authenticate&');

    const asserted = await confirmInBrowser(browser, challenge, 'authenticate');
    expect(main.router.handle(asserted)).toBe(true);
    await page.waitForURL('**/dashboard');
    const session = vaultSession(main);
    expect(session.aal).toBe('aal2');
    expect(session.amr?.map((m) => m.method).sort()).toEqual(['mfa/webauthn', 'password']);
    await saveScreenshot(page, 'desktop biometric signed in at aal2');
    await browser.context.close();
    await context.close();
  });

  it('cancels, ignores an answer for another state, and gives up when the challenge expires', async () => {
    const { context, page, main } = await desktop({ fakeClock: true });
    const browser = await newMfaPage(e2e);
    const email = await newUser('desk-bio-refused');
    await signIn(page, email);
    await page.waitForURL('**/dashboard');
    await page.goto('/auth/biometric-setup');

    // An attempt can be cancelled from the desktop while the browser has it.
    await page.getByRole('button', { name: 'Register Biometric' }).click();
    await openedRelay(main, 1);
    await page.getByTestId('webauthn-handoff').getByRole('button', { name: 'Stop waiting' }).click();
    await page
      .getByTestId('biometric-error')
      .getByText('The biometric confirmation was cancelled. Please try again when you are ready.')
      .waitFor();
    await expect(page.getByTestId('webauthn-handoff').count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Register Biometric' }).click();
    const href = await confirmInBrowser(browser, await openedRelay(main, 2), 'refused');
    // The same answer under another (well-formed) state: the main process passes it, the page ignores it.
    const forged = new URL(href);
    forged.searchParams.set('state', 'Z'.repeat(43));
    const before = main.refused.length;
    expect(main.router.handle(forged.toString())).toBe(true);
    // A malformed link never reaches the page at all.
    expect(main.router.handle(`${href}&next=https://evil.example`)).toBe(false);
    expect(main.refused.length).toBe(before + 1);
    await page.waitForTimeout(500);
    await expect(page.getByTestId('biometric-success').count()).resolves.toBe(0);
    await page.getByTestId('webauthn-handoff').waitFor();

    // The challenge's 60 s run out: the wait ends with the message, and a late answer changes nothing.
    await page.clock.fastForward('01:01');
    await page
      .getByTestId('webauthn-unsupported')
      .getByText('The biometric confirmation expired before your browser answered. Please try again.')
      .waitFor();
    await expect(page.getByTestId('webauthn-handoff').count()).resolves.toBe(0);
    expect(main.router.handle(href)).toBe(true);
    await page.waitForTimeout(500);
    await expect(page.getByTestId('biometric-success').count()).resolves.toBe(0);
    await saveScreenshot(page, 'desktop biometric expired');
    await browser.context.close();
    await context.close();
  });
});
