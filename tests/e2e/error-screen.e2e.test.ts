// The error screen (docs/product.md §4 and §8), reached by a real failure rather than a test-only crash button:
// the page's code chunk cannot be loaded (what a visitor on a stale tab meets after a deploy). The router
// hands the thrown error to the crash screen, which shows the Error ID, raises the 6 s toast and reports
// the error: to application-logger when signed in, else to the local store (vigil_errors, newest 50).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { saveScreenshot } from './screenshots.ts';
import { fillSignUpForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

const TERMS_CHUNK = /\/assets\/terms-[\w-]+\.js$/;
const ERROR_ID = /^err_\d{13}_[a-z0-9]{9}$/;

/** Makes the Terms page's chunk unreachable, then opens it: the lazy route rejects while rendering. */
async function crashOnTerms(page: Page): Promise<string> {
  await page.route(TERMS_CHUNK, (route) => route.abort('connectionreset'));
  await page.goto('/terms');
  await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
  const errorId = (await page.locator('main code').textContent())?.trim() ?? '';
  expect(errorId).toMatch(ERROR_ID);
  return errorId;
}

async function storedErrors(
  page: Page,
): Promise<{ id: string; message: string; component?: string; severity?: string }[]> {
  return JSON.parse((await page.evaluate(() => localStorage.getItem('vigil_errors'))) ?? '[]') as never;
}

describe('error screen', () => {
  it('shows the message, the Error ID and the 6 s toast, and keeps the report locally when signed out', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/');
    // 50 older records: the store must drop the oldest to keep only the newest 50.
    await page.evaluate(() => {
      const old = Array.from({ length: 50 }, (_, i) => ({
        id: `err_1_old${i}`,
        timestamp: new Date(0).toISOString(),
        message: `old ${i}`,
      }));
      localStorage.setItem('vigil_errors', JSON.stringify(old));
    });

    const errorId = await crashOnTerms(page);
    const shownAt = Date.now();
    await page
      .getByText(/dynamically imported module|Importing a module script failed/)
      .first()
      .waitFor();
    // The toast itself (an item of the toast viewport), not Radix's short-lived screen-reader announcement.
    const toast = page.locator('ol > li').filter({ hasText: 'An error occurred' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(`(ID: ${errorId})`);
    await saveScreenshot(page, 'error screen');

    // Signed out, application-logger refuses the report, so it lands in the local store.
    await expect.poll(async () => (await storedErrors(page)).at(-1)?.id, { timeout: 10_000 }).toBe(errorId);
    const stored = await storedErrors(page);
    expect(stored).toHaveLength(50);
    expect(stored[0]?.id).toBe('err_1_old1');
    expect(stored.at(-1)).toMatchObject({ component: 'route' });

    // The destructive toast lasts 6 s: still there after 4.5 s, gone soon after 6 s.
    await page.waitForTimeout(Math.max(0, 4_500 - (Date.now() - shownAt)));
    expect(await toast.isVisible()).toBe(true);
    await toast.waitFor({ state: 'hidden', timeout: 4_000 });

    await page.getByRole('button', { name: 'Report Issue' }).click();
    await page.getByText('Issue reported', { exact: true }).first().waitFor();
    await page.getByText('Thank you for reporting this issue. Our team will investigate.').first().waitFor();

    // Reload Page retries the chunk; once it is reachable again the page renders.
    await page.unroute(TERMS_CHUNK);
    await page.getByRole('button', { name: 'Reload Page' }).click();
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    await context.close();
  });

  it('returns home, and logs the error through application-logger when signed in', async () => {
    const { page, context } = await newPage(e2e);
    const email = `crash-${Date.now()}@example.com`;
    await page.goto('/auth');
    await fillSignUpForm(page, {
      fullName: 'Margaret Hamilton',
      company: 'Apollo Guidance',
      industry: 'Government',
      email: email,
      password: 'lunar-module-1202',
    });
    await page.waitForURL('**/dashboard');

    const errorId = await crashOnTerms(page);
    await expect
      .poll(
        async () => {
          const { rows } = await e2e.stack.ctx.db.query<{
            level: string;
            component: string | null;
            email: string;
          }>(
            `select l.level, l.context->>'component' as component, u.email
               from public.application_logs l join auth.users u on u.id = l.user_id
              where l.context->>'errorId' = $1`,
            [errorId],
          );
          return rows;
        },
        { timeout: 10_000 },
      )
      .toEqual([{ level: 'error', component: 'route', email }]);
    expect(await storedErrors(page)).toEqual([]);

    await page.getByRole('button', { name: 'Return to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Choose Your Security Agents' }).waitFor();
    await context.close();
  });
});
