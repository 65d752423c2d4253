// The authentication flows of docs/product.md §2, §5, §8, end to end against the embedded auth server.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, latestMail, newPage, startE2E } from './harness.ts';
import { fillSignUpForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const text = (page: Page, value: string) => page.getByText(value, { exact: true }).first();

async function signUp(page: Page, email: string, password = 'correct-horse-1') {
  await page.goto('/auth');
  await fillSignUpForm(page, {
    fullName: 'Ada Lovelace',
    company: 'Analytical Engines Ltd',
    industry: 'Technology',
    email: email,
    password: password,
  });
}

async function confirmByMail(page: Page, email: string) {
  const mail = await latestMail(e2e.stack, email);
  const link = mail.links.find((url) => url.includes('/auth/v1/verify'));
  expect(link, 'confirmation link').toBeTruthy();
  await page.goto(link!);
}

describe('sign-up form validation', () => {
  it('shows every field message', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await text(page, 'Full name is required').waitFor();
    await text(page, 'Company name is required').waitFor();
    await text(page, 'Please select an industry type').waitFor();
    await text(page, 'Email is required').waitFor();
    await text(page, 'Password must be at least 6 characters long').waitFor();
    expect(await page.locator('a[href="/terms"]').count()).toBe(1);
    expect(await page.locator('a[href="/privacy"]').count()).toBe(1);
    await context.close();
  });

  it('checks the sign-in password length before calling the server', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/auth');
    await page.getByRole('textbox', { name: 'Email' }).fill('a@example.com');
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await text(page, 'Password must be at least 6 characters long').waitFor();
    await context.close();
  });
});

describe('sign up, confirm, sign out, sign in', () => {
  it('walks the whole account life cycle', async () => {
    const { page, context } = await newPage(e2e);
    const email = `ada-${Date.now()}@example.com`;
    await signUp(page, email);
    await page.waitForURL('**/auth/verify');
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await text(page, 'Account created successfully!').waitFor();

    // Signing in before confirming shows the mapped message.
    await page.goto('/auth');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await text(page, 'Please check your email to confirm your account before signing in.').waitFor();

    await confirmByMail(page, email);
    await page.waitForURL('**/auth/callback**');
    await page.getByRole('heading', { name: 'Authentication Complete' }).waitFor();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Ada Lovelace' }).waitFor();

    // /auth is only for signed-out visitors.
    await page.goto('/auth');
    await page.waitForURL('**/dashboard');

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await text(page, 'Signed out successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/auth');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await text(page, 'Invalid email or password. Please try again.').waitFor();

    await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await text(page, 'Signed in successfully').waitFor();
    await context.close();
  });

  it('returns to the protected page that sent the visitor to /auth', async () => {
    const { page, context } = await newPage(e2e);
    const email = `grace-${Date.now()}@example.com`;
    await signUp(page, email);
    await page.waitForURL('**/auth/verify');
    await confirmByMail(page, email);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/dashboard/settings');
    await page.waitForURL('**/auth');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await context.close();
  });

  it('refuses to register an address twice', async () => {
    const { page, context } = await newPage(e2e);
    const email = `twice-${Date.now()}@example.com`;
    await signUp(page, email);
    await page.waitForURL('**/auth/verify');
    await confirmByMail(page, email);
    await page.waitForURL('**/dashboard');
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signUp(page, email);
    // GoTrue hides existing addresses from sign-up (no enumeration) or says they are registered.
    await Promise.race([
      page.waitForURL('**/auth/verify'),
      text(page, 'This email is already registered. Try signing in instead.').waitFor(),
    ]);
    await context.close();
  });
});

describe('callback and password reset', () => {
  it('shows the callback error view with Return to Login', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/auth/callback');
    await page.getByRole('heading', { name: 'Authentication Error' }).waitFor();
    await text(page, 'Unable to authenticate. Please try logging in again.').waitFor();
    await page.goto(
      '/auth/callback?error=access_denied&error_description=Email+link+is+invalid+or+has+expired',
    );
    await text(page, 'Email link is invalid or has expired').waitFor();
    await page.getByRole('button', { name: 'Return to Login' }).click();
    await page.waitForURL('**/auth');
    await page.goto('/auth/callback?code=not-a-real-code');
    await text(page, 'Unable to authenticate. Please try logging in again.').waitFor();
    await context.close();
  });

  it('sends visitors without a session from reset-password to forgot-password', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/auth/reset-password');
    await page.waitForURL('**/auth/forgot-password');
    await text(page, 'Reset link expired or invalid').waitFor();
    await context.close();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const { page, context } = await newPage(e2e);
    const email = `reset-${Date.now()}@example.com`;
    await signUp(page, email);
    await page.waitForURL('**/auth/verify');
    await confirmByMail(page, email);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/auth/forgot-password');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await text(page, 'Email is required').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Password Reset Email Sent' }).waitFor();
    await page.getByRole('button', { name: 'Send another email' }).click();
    await page.getByRole('button', { name: 'Send Reset Link' }).waitFor();

    const mail = await latestMail(e2e.stack, email);
    expect(mail.subject.toLowerCase()).toContain('reset');
    await page.goto(mail.links.find((url) => url.includes('/auth/v1/verify'))!);
    await page.waitForURL('**/auth/reset-password**');
    await page.getByLabel('New Password').fill('new-secret-1');
    await page.getByLabel('Confirm Password').fill('new-secret-2');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await text(page, "Passwords don't match").waitFor();
    await page.getByLabel('Confirm Password').fill('new-secret-1');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await text(page, 'Password Updated').waitFor();
    await page.waitForURL('**/dashboard');
    await context.close();
  });
});
