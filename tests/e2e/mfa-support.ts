// Helpers for the multi-factor end-to-end test (mfa.e2e.test.ts): a page on http://localhost:<port> with
// Chromium's DevTools virtual authenticator, sign-up through the e-mailed link, and the session's claims.
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { expect } from 'vitest';

import { client } from '../helpers/stack.ts';
import { type E2E, latestMail } from './harness.ts';
import { fillSignUpForm } from './sign-up.ts';

export const PASSWORD = 'correct-horse-1';

/**
 * The stack's own URL on the host name `localhost`. WebAuthn needs a secure context and an RP id the host
 * matches: the embedded stack's RP id is 'localhost' and the auth server only accepts ceremonies signed at
 * http(s)://localhost:<port>, so the app must run there rather than on 127.0.0.1.
 */
export const localhostUrl = (e2e: E2E) => e2e.stack.url.replace('//127.0.0.1:', '//localhost:');

export interface MfaPage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
}

/**
 * A fresh profile whose page has a platform authenticator (user-verifying unless `userVerified` is false),
 * on the localhost origin unless `baseURL` says otherwise.
 */
export async function newMfaPage(
  e2e: E2E,
  { baseURL = localhostUrl(e2e), userVerified = true } = {},
): Promise<MfaPage> {
  const context = await e2e.browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: userVerified,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}

/** The sign counts of the credentials the virtual authenticator holds. */
export async function authenticatorSignCounts(mfa: MfaPage): Promise<number[]> {
  const { credentials } = await mfa.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: mfa.authenticatorId,
  });
  return credentials.map((c) => c.signCount);
}

export const text = (page: Page, value: string) => page.getByText(value, { exact: true }).first();

/** Signs up through /auth, confirms through the link in the mail outbox, and lands on the dashboard. */
export async function signUpAndConfirm(e2e: E2E, page: Page, email: string): Promise<string> {
  await page.goto('/auth');
  await fillSignUpForm(page, {
    fullName: 'Ada Lovelace',
    company: 'Analytical Engines Ltd',
    industry: 'Technology',
    email: email,
    password: PASSWORD,
  });
  await page.waitForURL('**/auth/verify');
  const mail = await latestMail(e2e.stack, email);
  const link = mail.links.find((url) => url.includes('/auth/v1/verify'));
  expect(link, 'confirmation link').toBeTruthy();
  await page.goto(link!);
  await page.waitForURL('**/dashboard');
  const { rows } = await e2e.stack.ctx.db.query<{ id: string }>(
    'select id from auth.users where email = $1',
    [email],
  );
  return rows[0]!.id;
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** A password sign-in through the /auth form; where it leads is the caller's to check. */
export async function signInWithPassword(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

// The security settings page.

export const factorRow = (page: Page, type: 'webauthn' | 'totp') =>
  page
    .getByTestId('factor-list')
    .getByRole('listitem')
    .filter({ hasText: type === 'totp' ? 'Authenticator app' : 'Biometric' });

/** Waits for the security settings to show the two-factor state (it follows sync_state after a change). */
export const twoFactorState = (page: Page, state: 'Enabled' | 'Disabled') =>
  page
    .getByTestId('two-factor-state')
    .filter({ hasText: new RegExp(`^${state}$`) })
    .waitFor();

/** The signature counter the auth server keeps for the user's verified WebAuthn factor. */
export async function storedWebauthnCounter(e2e: E2E, userId: string): Promise<number> {
  const { rows } = await e2e.stack.ctx.db.query<{ counter: number }>(
    `select (web_authn_credential ->> 'counter')::int as counter from auth.mfa_factors
      where user_id = $1 and factor_type = 'webauthn' and status = 'verified'`,
    [userId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.counter;
}

/** Adds an authenticator app from the security settings and returns its secret. */
export async function enrolTotp(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Add Authenticator App' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code', { exact: true }).fill(totpCode(secret));
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await factorRow(page, 'totp').getByText('verified', { exact: true }).waitFor();
  return secret;
}

/** The access token the app stored for its session (supabase-js's sb-<ref>-auth-token entry). */
export async function storedAccessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i) ?? '';
      if (/^sb-.+-auth-token$/.test(key)) {
        return (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
      }
    }
    return undefined;
  });
  expect(token, 'stored session').toBeTruthy();
  return token!;
}

/**
 * The session's assurance as supabase-js reports it for the stored token (the server checks the token
 * and lists the user's factors), its amr methods, and the aal the auth server keeps for the session.
 */
export async function sessionAssurance(e2e: E2E, page: Page) {
  const token = await storedAccessToken(page);
  const { data, error } = await client(e2e.stack).auth.mfa.getAuthenticatorAssuranceLevel(token);
  expect(error).toBeNull();
  const claims = decodeJwt(token) as { aal?: string; session_id?: string };
  const { rows } = await e2e.stack.ctx.db.query<{ aal: string }>(
    'select aal from auth.sessions where id = $1',
    [claims.session_id],
  );
  return {
    currentLevel: data?.currentLevel,
    nextLevel: data?.nextLevel,
    claim: claims.aal,
    serverSession: rows[0]?.aal,
    methods: (data?.currentAuthenticationMethods ?? [])
      .map((m) => (typeof m === 'string' ? m : m.method))
      .sort(),
  };
}

/** DELETE /auth/v1/factors/:id with a session's access token, as supabase-js's mfa.unenroll sends it. */
export async function unenrollAs(e2e: E2E, token: string, factorId: string) {
  const res = await fetch(`${e2e.stack.url}/auth/v1/factors/${factorId}`, {
    method: 'DELETE',
    headers: { apikey: e2e.stack.status.anon_key, Authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { code?: string; msg?: string; message?: string };
  return { status: res.status, code: body.code, message: body.msg ?? body.message };
}

/** A code from the authenticator app holding `secret` (GoTrue's parameters: SHA-1, 6 digits, 30 s). */
export const totpCode = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

/** A six-digit code that no step within the server's window (±1) accepts. */
export function wrongTotpCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, step)));
  for (let step = 40; ; step += 1) {
    const code = totpCode(secret, step);
    if (!valid.has(code)) {
      return code;
    }
  }
}
