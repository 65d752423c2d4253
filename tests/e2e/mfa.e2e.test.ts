// Multi-factor sign-in (docs/product.md §15) end to end in Chromium: a biometric factor registered with the DevTools
// virtual authenticator and a TOTP factor from the security settings, each then required at sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, startE2E } from './harness.ts';
import {
  authenticatorSignCounts,
  enrolTotp,
  factorRow,
  newMfaPage,
  sessionAssurance,
  signInWithPassword,
  signOut,
  signUpAndConfirm,
  storedAccessToken,
  storedWebauthnCounter,
  text,
  totpCode,
  twoFactorState,
  unenrollAs,
  wrongTotpCode,
} from './mfa-support.ts';
import { saveScreenshot } from './screenshots.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('biometric second factor', () => {
  it('registers with the platform authenticator and is required at the next sign-in', async () => {
    const mfa = await newMfaPage(e2e);
    const { page } = mfa;
    const email = `bio-${Date.now()}@example.com`;
    const userId = await signUpAndConfirm(e2e, page, email);
    expect((await sessionAssurance(e2e, page)).currentLevel).toBe('aal1');

    await page.goto('/auth/biometric-setup');
    await page.getByRole('heading', { name: 'Set Up Biometric Authentication' }).waitFor();
    await expect(page.getByTestId('webauthn-unsupported').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Register Biometric' }).click();
    await page.getByTestId('biometric-success').getByText('Biometric Setup Complete').waitFor();
    await saveScreenshot(page, 'mfa biometric setup complete');
    expect(await authenticatorSignCounts(mfa)).toHaveLength(1);
    const registered = await storedWebauthnCounter(e2e, userId);

    await page.getByRole('button', { name: 'Go to Security Settings' }).click();
    await page.waitForURL('**/dashboard/security-settings');
    await factorRow(page, 'webauthn').getByText('verified', { exact: true }).waitFor();
    await twoFactorState(page, 'Enabled');
    await text(page, 'Method: biometric').waitFor();

    await signOut(page);
    await signInWithPassword(page, email);
    // Asked for the second step, not the dashboard; the dashboard itself sends back to it.
    await page.waitForURL('**/auth/mfa');
    await page.getByRole('heading', { name: 'Two-Factor Verification' }).waitFor();
    const before = await sessionAssurance(e2e, page);
    expect(before).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2', claim: 'aal1' });
    await page.goto('/dashboard/alerts');
    await page.waitForURL('**/auth/mfa');

    await page.getByRole('button', { name: 'Verify with Biometrics' }).click();
    await page.waitForURL('**/dashboard/alerts');
    const after = await sessionAssurance(e2e, page);
    expect(after).toMatchObject({ currentLevel: 'aal2', claim: 'aal2', serverSession: 'aal2' });
    expect(after.methods).toEqual(['mfa/webauthn', 'password']);
    // The assertion's signature counter moved on, and the stored one with it.
    const counter = await storedWebauthnCounter(e2e, userId);
    expect(counter).toBeGreaterThan(registered);
    expect(await authenticatorSignCounts(mfa)).toEqual([counter]);
    await saveScreenshot(page, 'mfa biometric signed in at aal2');
    await mfa.context.close();
  });
});

describe('biometric setup errors', () => {
  async function registerOn(options: Parameters<typeof newMfaPage>[1], tag: string) {
    const mfa = await newMfaPage(e2e, options);
    await signUpAndConfirm(e2e, mfa.page, `${tag}-${Date.now()}@example.com`);
    await mfa.page.goto('/auth/biometric-setup');
    await mfa.page.getByRole('button', { name: 'Register Biometric' }).click();
    return mfa;
  }

  it('says the operation was cancelled when the device does not confirm the user', async () => {
    const { page, context, cdp, authenticatorId } = await registerOn({ userVerified: false }, 'bio-cancel');
    await page
      .getByTestId('biometric-error')
      .getByText(
        'The biometric operation timed out or was canceled. Please try again and follow your device prompts.',
      )
      .waitFor();
    await expect(page.getByTestId('biometric-success').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/dashboard/security-settings');
    // The abandoned attempt leaves only an unverified factor: nothing counts yet.
    await factorRow(page, 'webauthn').getByText('unverified', { exact: true }).waitFor();
    await twoFactorState(page, 'Disabled');

    // Once the device confirms the user, a new attempt reuses that factor and verifies it.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    await page.getByRole('button', { name: 'Add Biometric' }).click();
    await page.getByRole('button', { name: 'Register Biometric' }).click();
    await page.getByTestId('biometric-success').waitFor();
    await page.getByRole('button', { name: 'Go to Security Settings' }).click();
    await factorRow(page, 'webauthn').getByText('verified', { exact: true }).waitFor();
    await expect(page.getByTestId('factor-list').getByRole('listitem').count()).resolves.toBe(1);
    await twoFactorState(page, 'Enabled');
    await context.close();
  });

  it('explains the origin problem on a host the relying party does not cover (127.0.0.1)', async () => {
    const { page, context } = await registerOn({ baseURL: e2e.stack.url }, 'bio-origin');
    await page
      .getByTestId('biometric-error')
      .getByText(
        'Biometric authentication is blocked in this sandboxed or embedded page. Open Vigil in its own browser tab and try again.',
      )
      .waitFor();
    await saveScreenshot(page, 'mfa biometric origin error');
    await context.close();
  });
});

describe('authenticator app second factor', () => {
  it('enrols from the security settings, refuses a wrong code and accepts the right one', async () => {
    const { page, context } = await newMfaPage(e2e);
    const email = `totp-${Date.now()}@example.com`;
    await signUpAndConfirm(e2e, page, email);
    await page.goto('/dashboard/security-settings');
    await twoFactorState(page, 'Disabled');
    const secret = await enrolTotp(page);
    await twoFactorState(page, 'Enabled');
    await text(page, 'Method: authenticator app').waitFor();
    expect((await sessionAssurance(e2e, page)).currentLevel).toBe('aal2');

    await signOut(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/auth/mfa');
    await page.getByLabel('Authenticator app code').fill(wrongTotpCode(secret));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.getByTestId('mfa-error').getByText('Invalid TOTP code entered').waitFor();
    await saveScreenshot(page, 'mfa wrong totp code');
    expect(new URL(page.url()).pathname).toBe('/auth/mfa');
    expect(await sessionAssurance(e2e, page)).toMatchObject({ currentLevel: 'aal1', claim: 'aal1' });
    // Enrolling another factor needs the second step first, too.
    await page.goto('/auth/biometric-setup');
    await page.waitForURL('**/auth/mfa');

    await page.getByLabel('Authenticator app code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    // Back where the guard stopped the session.
    await page.waitForURL('**/auth/biometric-setup');
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Ada Lovelace' }).waitFor();
    const after = await sessionAssurance(e2e, page);
    expect(after).toMatchObject({ currentLevel: 'aal2', claim: 'aal2', serverSession: 'aal2' });
    expect(after.methods).toEqual(['password', 'totp']);

    // Without the phone at hand, the second step offers a way out: sign out (and support).
    await signOut(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/auth/mfa');
    await page.getByRole('link', { name: 'contact support' }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/dashboard');
    await page.waitForURL('**/auth');
    await context.close();
  });
});

describe('removing a factor', () => {
  it('needs the second step in a session that signed in before the factor existed, then removes it', async () => {
    const first = await newMfaPage(e2e);
    const email = `remove-${Date.now()}@example.com`;
    await signUpAndConfirm(e2e, first.page, email);

    // A second browser signs in (aal1, no factor yet) before the first one adds the authenticator app.
    const second = await newMfaPage(e2e);
    await signInWithPassword(second.page, email);
    await second.page.waitForURL('**/dashboard');

    await first.page.goto('/dashboard/security-settings');
    const secret = await enrolTotp(first.page);
    await first.context.close();

    // The second browser's session is still aal1 (password only): its next load asks for the second step
    // before any dashboard page, and the auth server refuses to remove the factor at aal1.
    const { page } = second;
    await page.goto('/dashboard/security-settings');
    await page.waitForURL('**/auth/mfa');
    const { rows: factors } = await e2e.stack.ctx.db.query<{ id: string }>(
      'select f.id from auth.mfa_factors f join auth.users u on u.id = f.user_id where u.email = $1',
      [email],
    );
    const refused = await unenrollAs(e2e, await storedAccessToken(page), factors[0]!.id);
    expect(refused).toEqual({
      status: 422,
      code: 'insufficient_aal',
      message: 'AAL2 required to unenroll verified factor',
    });

    await page.getByLabel('Authenticator app code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.waitForURL('**/dashboard/security-settings');
    expect((await sessionAssurance(e2e, page)).currentLevel).toBe('aal2');

    await factorRow(page, 'totp').getByRole('button', { name: 'Remove' }).click();
    await text(page, 'No second factors yet.').waitFor();
    await twoFactorState(page, 'Disabled');
    const { rows } = await e2e.stack.ctx.db.query(
      'select 1 from auth.mfa_factors f join auth.users u on u.id = f.user_id where u.email = $1',
      [email],
    );
    expect(rows).toHaveLength(0);

    // Without a factor the next password sign-in goes straight to the dashboard.
    await signOut(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/dashboard');
    await second.context.close();
  });
});
