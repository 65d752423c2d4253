// Session refresh (docs/product.md §4.1: refreshed before it expires and when the tab becomes visible again; a
// non-retryable refresh failure removes the session), driven by Playwright's clock in the real web build
// against the real stack: the page's timers and Date are fake, the server's clock is real.
import { createClient } from '@supabase/supabase-js';
import type { Page, Request, Response } from 'playwright-core';
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

interface StoredSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
}

/** A new customer signed up through the form on a page whose clock is Playwright's. */
async function signedInWithClock(tag: string) {
  const { page, context } = await newPage(e2e);
  await page.clock.install();
  const customer = {
    fullName: 'Grace Hopper',
    company: 'Cobol Inc',
    email: `${tag}-${Date.now()}@example.com`,
    password: 'compiler-1234',
  };
  await signUpThroughForm(e2e, page, customer);
  await page.getByRole('heading', { name: 'Welcome back, Grace Hopper' }).waitFor();
  const refreshes: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/auth/v1/token?grant_type=refresh_token')) {
      refreshes.push(request);
    }
  });
  return { page, context, customer, refreshes };
}

/** supabase-js's stored session (sb-<ref>-auth-token in local storage). */
async function storedSession(page: Page): Promise<StoredSession | null> {
  return page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i)!;
      if (/^sb-.+-auth-token$/.test(key)) {
        return JSON.parse(localStorage.getItem(key)!) as StoredSession;
      }
    }
    return null;
  });
}

/** Hides the tab, then shows it again, as a person switching tabs does (the page runs this script). */
async function hideAndShow(page: Page): Promise<void> {
  for (const state of ['hidden', 'visible']) {
    await page.evaluate(`(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => '${state}' === 'hidden' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    })()`);
  }
}

const secondsLeft = (session: StoredSession, now: number) => session.expires_at - now / 1000;

describe('session refresh', () => {
  it('refreshes before the access token expires and stays signed in with the new token', async () => {
    const { page, context, refreshes } = await signedInWithClock('refresh');
    const before = (await storedSession(page))!;
    const now = await page.evaluate(() => Date.now());
    expect(secondsLeft(before, now)).toBeGreaterThan(30 * 60);
    expect(refreshes).toHaveLength(0);

    // To 80 s before expiry: inside supabase-js's margin (3 ticks of 30 s), so the next tick refreshes.
    const refreshed = page.waitForResponse((r) => r.url().includes('grant_type=refresh_token'));
    await page.clock.fastForward(Math.round((secondsLeft(before, now) - 80) * 1000));
    expect((await refreshed).status()).toBe(200);
    const after = await (async () => {
      for (;;) {
        const s = (await storedSession(page))!;
        if (s.access_token !== before.access_token) {
          return s;
        }
        await page.waitForTimeout(50);
      }
    })();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(refreshes[0]!.postDataJSON()).toEqual({ refresh_token: before.refresh_token });
    // Still on the dashboard, and the new token is one the server accepts.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Grace Hopper' }).waitFor();
    const user = await fetch(`${e2e.stack.url}/auth/v1/user`, {
      headers: { apikey: e2e.stack.status.anon_key, authorization: `Bearer ${after.access_token}` },
    });
    expect(user.status).toBe(200);
    await context.close();
  });

  it('checks the session when the tab becomes visible again (at most once a minute)', async () => {
    const { page, context, refreshes } = await signedInWithClock('visible');
    // Just signed in: flicking tabs at once does not hammer the token endpoint.
    await hideAndShow(page);
    await page.waitForTimeout(500);
    expect(refreshes).toHaveLength(0);

    await page.clock.fastForward('01:05');
    const refreshed = page.waitForResponse((r) => r.url().includes('grant_type=refresh_token'));
    await hideAndShow(page);
    expect((await refreshed).status()).toBe(200);
    expect(refreshes).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  });

  it('signs out to /auth when the tab comes back and the session was revoked on the server', async () => {
    const { page, context, customer } = await signedInWithClock('revoked-visible');
    await revokeEverywhere(customer);
    await page.clock.fastForward('01:05');
    const failed = page.waitForResponse((r) => r.url().includes('grant_type=refresh_token'));
    await hideAndShow(page);
    await expectRefused(await failed);
    // The access token has most of its hour left, yet the refused refresh token ends the session at once.
    await expectSignedOutToAuth(page);
    await context.close();
  });

  it('signs out to /auth when the automatic refresh fails for good after the access token expired', async () => {
    const { page, context, customer } = await signedInWithClock('revoked-expiry');
    const session = (await storedSession(page))!;
    await revokeEverywhere(customer);
    const failed = page.waitForResponse((r) => r.url().includes('grant_type=refresh_token'));
    const now = await page.evaluate(() => Date.now());
    await page.clock.fastForward(Math.round((secondsLeft(session, now) + 5) * 1000));
    await expectRefused(await failed);
    await expectSignedOutToAuth(page);
    await context.close();
  });
});

/** Another device signs in and signs out everywhere: every refresh token of the user is gone. */
async function revokeEverywhere(customer: { email: string; password: string }): Promise<void> {
  const other = createClient(e2e.stack.url, e2e.stack.status.anon_key, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { error: signInError } = await other.auth.signInWithPassword(customer);
  expect(signInError).toBeNull();
  const { error: signOutError } = await other.auth.signOut({ scope: 'global' });
  expect(signOutError).toBeNull();
}

async function expectRefused(response: Response): Promise<void> {
  expect(response.status()).toBe(400);
  expect(((await response.json()) as { error_code?: string }).error_code).toBe('refresh_token_not_found');
}

async function expectSignedOutToAuth(page: Page): Promise<void> {
  await page.waitForURL('**/auth');
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  expect(await storedSession(page)).toBeNull();
  // docs/product.md §4.1 gives no toast for a lost session; the person's own sign-out toast must not appear.
  expect(await page.getByText('Signed out successfully').count()).toBe(0);
}
