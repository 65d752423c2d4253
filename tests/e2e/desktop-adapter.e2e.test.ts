// The renderer's desktop platform (renderer/src/lib/platform/desktop.ts) in Chromium, over a window.vigil whose
// calls run through the real main-process modules (see desktop-bridge.ts): the session goes to the encrypted
// vault, never to localStorage; e-mail links come back as vigil:// deep links; hostile links, foreign origins
// and non-allow-listed URLs are refused.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { VigilBridge } from '../../electron/preload/index.ts';
import type { DesktopBridge } from '../../renderer/src/lib/platform/types.ts';
import { client } from '../helpers/stack.ts';
import { type DesktopHarness, installDesktopBridge } from './desktop-bridge.ts';
import { type E2E, latestMail, startE2E } from './harness.ts';
import { saveScreenshot } from './screenshots.ts';
import { fillSignUpForm } from './sign-up.ts';

// Compile-time proof that the preload's bridge is what the renderer's desktop platform expects.
const preloadSatisfiesRenderer = (bridge: VigilBridge): DesktopBridge => bridge;
void preloadSatisfiesRenderer;

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

async function desktop(): Promise<{ context: BrowserContext; page: Page; main: DesktopHarness }> {
  const context = await e2e.browser.newContext({
    baseURL: e2e.stack.url,
    viewport: { width: 1280, height: 900 },
  });
  const holder: { page?: Page } = {};
  const main = await installDesktopBridge(context, e2e.stack.url, () => holder.page!);
  const page = (holder.page = await context.newPage());
  page.on('load', () => main.router.markReady());
  return { context, page, main };
}

const sbKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('sb-')));
const delivered = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { __vigilDeepLinksDelivered: number }).__vigilDeepLinksDelivered,
  );

async function createUser(email: string, password: string): Promise<void> {
  const { error } = await client(e2e.stack, 'service_role').auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { full_name: 'Linus Desktop', company_name: 'Kernel Ltd', industry_type: 'Technology' },
  });
  expect(error).toBeNull();
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('tux-penguin-91');
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('desktop platform adapter', () => {
  it('keeps the session in the encrypted vault, not in localStorage', async () => {
    const { context, page, main } = await desktop();
    const email = `desk-${Date.now()}@example.com`;
    await createUser(email, 'tux-penguin-91');
    await signIn(page, email);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Linus Desktop' }).waitFor();
    await saveScreenshot(page, 'desktop dashboard');

    expect(await sbKeys(page)).toEqual([]);
    const key = [...main.disk.keys()].find((k) => /^sb-[a-z0-9-]+-auth-token$/.test(k));
    expect(key, 'session key in the vault').toBeTruthy();
    // On disk only ciphertext: no token or e-mail readable without the keychain's key.
    const onDisk = Buffer.from(main.disk.get(key!)!, 'base64').toString('latin1');
    expect(onDisk).not.toContain('access_token');
    expect(onDisk).not.toContain(email);
    const session = JSON.parse(main.vault.getItem(key!)!) as {
      access_token: string;
      user: { email: string };
    };
    expect(session.user.email).toBe(email);
    expect(session.access_token.split('.')).toHaveLength(3);

    // The session survives a reload (read back through the bridge), and signing out clears the vault.
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome back, Linus Desktop' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => main.vault.getItem(key!)).toBeNull();
    await context.close();
  });

  it('hands the biometric factor to the system browser: only the web origin’s relay page opens', async () => {
    const { context, page, main } = await desktop();
    const email = `desk-bio-${Date.now()}@example.com`;
    await createUser(email, 'tux-penguin-91');
    await signIn(page, email);
    await page.waitForURL('**/dashboard');
    await page.goto('/auth/biometric-setup');
    await page.getByRole('button', { name: 'Register Biometric' }).click();
    await page.getByTestId('webauthn-handoff').getByText('Continue in your browser').waitFor();
    const webOrigin = e2e.stack.url.replace('//127.0.0.1:', '//localhost:');
    expect(main.opened).toHaveLength(1);
    expect(main.opened[0]!.startsWith(`${webOrigin}/auth/webauthn-relay#mode=register&state=`)).toBe(true);
    // The bridge opens no other page of the web origin (tests/e2e/mfa-desktop.e2e.test.ts does the rest).
    const refusedPage = await page.evaluate(
      (url) =>
        (
          globalThis as unknown as { vigil: { openExternal(u: string): Promise<boolean> } }
        ).vigil.openExternal(url),
      `${webOrigin}/dashboard`,
    );
    expect(refusedPage).toBe(false);
    expect(main.opened).toHaveLength(1);
    await page.getByTestId('webauthn-handoff').getByRole('button', { name: 'Stop waiting' }).click();
    await page.getByTestId('biometric-error').waitFor();
    await context.close();
  });

  it('confirms the e-mail through a vigil:// deep link routed to /auth/callback', async () => {
    const { context, page, main } = await desktop();
    const email = `deep-${Date.now()}@example.com`;
    await page.goto('/auth');
    await fillSignUpForm(page, {
      fullName: 'Dennis Deeplink',
      company: 'Bell Labs',
      industry: 'Technology',
      email: email,
      password: 'unix-epoch-1970',
    });
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    // The PKCE verifier went to the vault too.
    expect([...main.disk.keys()].some((k) => k.endsWith('-code-verifier'))).toBe(true);
    expect(await sbKeys(page)).toEqual([]);

    // The e-mail link redirects to the app's scheme; the OS hands that link to the main process.
    const mail = await latestMail(e2e.stack, email);
    const verify = mail.links.find((url) => url.includes('/auth/v1/verify'))!;
    expect(new URL(verify).searchParams.get('redirect_to')).toBe('vigil://auth/callback');
    const response = await fetch(verify, { redirect: 'manual' });
    const link = response.headers.get('location') ?? '';
    expect(link).toMatch(/^vigil:\/\/auth\/callback\?code=/);

    expect(main.router.handle(link)).toBe(true);
    await page.getByRole('heading', { name: 'Authentication Complete' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/callback');
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Dennis Deeplink' }).waitFor();
    expect(await sbKeys(page)).toEqual([]);
    await context.close();
  });

  it('refuses hostile deep links before they reach the renderer', async () => {
    const { context, page, main } = await desktop();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Choose Your Security Agents' }).waitFor();
    const hostile = [
      'https://evil.example/auth/callback?code=abcdefgh12',
      'vigil://auth/callback?code=abcdefgh12&next=https://evil.example',
      'vigil://auth/callback?code=<script>alert(1)</script>',
      'vigil://auth/%2e%2e/dashboard',
      'vigil://auth/..//evil.example',
      'vigil://user:pw@auth/callback?code=abcdefgh12',
      'vigil://admin',
      `vigil://auth/callback?code=${'a'.repeat(3000)}`,
    ];
    for (const link of hostile) {
      expect(main.router.handle(link), link).toBe(false);
    }
    expect(main.refused).toHaveLength(hostile.length);
    // The log names the reason only, never the link (it may carry an auth code).
    expect(main.refused.join('\n')).not.toContain('abcdefgh12');
    await page.waitForTimeout(300);
    expect(await delivered(page)).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/');

    // A valid notification link still navigates.
    expect(main.router.handle('vigil://dashboard/settings')).toBe(true);
    await page.waitForURL('**/auth');
    expect(await delivered(page)).toBe(1);
    await context.close();
  });

  it('opens only allow-listed URLs outside the app', async () => {
    const { context, page, main } = await desktop();
    await page.goto('/');
    const open = (url: string) =>
      page
        .evaluate((u) => (globalThis as unknown as { vigil: DesktopBridge }).vigil.openExternal(u), url)
        .catch((e: Error) => e.message);
    expect(await open('https://github.com/vigil-security')).toBe(true);
    expect(await open('https://evil.example/phish')).toBe(false);
    expect(await open('http://github.com/vigil-security')).toBe(false);
    expect(await open('https://user:pw@github.com/')).toBe(false);
    expect(await open('file:///etc/passwd')).toBe(false);
    expect(await open('javascript:alert(1)')).toEqual(expect.anything());
    expect(await open('not a url')).toMatch(/invalid payload/);
    expect(main.opened).toEqual(['https://github.com/vigil-security']);
    await context.close();
  });

  it('saves reports only from the backend, under a plain file name', async () => {
    const { context, page, main } = await desktop();
    await page.goto('/');
    const save = (url: string, name: string) =>
      page
        .evaluate(
          ([u, n]) => (globalThis as unknown as { vigil: DesktopBridge }).vigil.saveReport(u!, n!),
          [url, name],
        )
        .catch((e: Error) => e.message);
    const saved = await save(`${e2e.stack.url}/config.json`, 'backend config.json');
    expect(saved).toEqual({ saved: true, path: path.join(main.saveDir, 'backend config.json') });
    expect(JSON.parse(await readFile(path.join(main.saveDir, 'backend config.json'), 'utf8'))).toHaveProperty(
      'supabaseUrl',
    );
    expect(await save('https://evil.example/report.pdf', 'report.pdf')).toMatch(
      /only be downloaded from the Vigil backend/,
    );
    expect(await save(`${e2e.stack.url}/config.json`, '../../.bashrc.json')).toMatch(/invalid payload/);
    expect(await save(`${e2e.stack.url}/config.json`, 'report.exe')).toMatch(/invalid payload/);
    expect(main.saveRequests).toEqual(['backend config.json']);
    await context.close();
  });

  it('refuses every bridge call from a page of another origin', async () => {
    const { context, page, main } = await desktop();
    main.vault.setItem('sb-127-auth-token', '{"access_token":"secret"}');
    // Same server, other origin (localhost instead of 127.0.0.1): the app loads, but the gate refuses it.
    const foreign = e2e.stack.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${foreign}/`);
    const read = await page
      .evaluate(() =>
        (globalThis as unknown as { vigil: DesktopBridge }).vigil.vault.getItem('sb-127-auth-token'),
      )
      .catch((e: Error) => e.message);
    expect(read).toMatch(/sender origin http:\/\/localhost:\d+ is not the app/);
    const write = await page
      .evaluate(() =>
        (globalThis as unknown as { vigil: DesktopBridge }).vigil.vault.setItem('sb-127-auth-token', 'x'),
      )
      .catch((e: Error) => e.message);
    expect(write).toMatch(/is not the app/);
    expect(main.vault.getItem('sb-127-auth-token')).toBe('{"access_token":"secret"}');
    // Keys other than supabase-js's auth keys are out of the vault's reach even for the app itself.
    await page.goto('/');
    const other = await page
      .evaluate(() => (globalThis as unknown as { vigil: DesktopBridge }).vigil.vault.getItem('ui-theme'))
      .catch((e: Error) => e.message);
    expect(other).toMatch(/only the auth session/);
    await context.close();
  });
});
