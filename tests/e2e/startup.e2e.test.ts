// How the web app starts (docs/product.md §17.4): a signed-in start on /dashboard fetches the page's
// route chunks beside the entry (not after it has run), needs no /config.json round trip, and renders
// without a layout shift; for a signed-out visitor, who is sent to /auth, the dashboard's chunks are not
// fetched early.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { fillSignUpForm } from './sign-up.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

/**
 * Sums every layout shift from before the page's own scripts run (as a string: the browser's types are not
 * in this Node project).
 */
const RECORD_SHIFTS = `
  window.__shifts = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__shifts += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

const layoutShifts = (page: Page) => page.evaluate<number>('window.__shifts');

/**
 * When the home page's chunk was requested and when the entry script had arrived (Resource Timing, ms):
 * fetched beside the entry, the chunk is requested before the entry has even arrived; loaded by the app, it
 * can only be requested once the entry has arrived and run.
 */
const chunkTiming = (page: Page) =>
  page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as unknown as {
      name: string;
      startTime: number;
      responseEnd: number;
    }[];
    const find = (prefix: string) =>
      entries.find((e) => {
        const { pathname } = new URL(e.name);
        return pathname.startsWith(prefix) && pathname.endsWith('.js');
      });
    return {
      homeRequested: find('/assets/home-')?.startTime ?? null,
      entryArrived: find('/assets/index-')?.responseEnd ?? null,
    };
  });

describe('web app start', () => {
  it('preloads the dashboard chunks for a signed-in start and renders it without a layout shift', async () => {
    const { page, context } = await newPage(e2e, { width: 412, height: 823 });
    await page.goto('/auth');
    await fillSignUpForm(page, {
      fullName: 'Grace Hopper',
      company: 'Harvard Mark I',
      industry: 'Technology',
      email: `grace-${Date.now()}@example.com`,
      password: 'cobol-12345',
    });
    await page.waitForURL('**/dashboard');

    const fresh = await context.newPage();
    await fresh.addInitScript({ content: RECORD_SHIFTS });
    const configFetches: string[] = [];
    fresh.on('request', (request) => {
      if (new URL(request.url()).pathname === '/config.json') {
        configFetches.push(request.url());
      }
    });
    await fresh.goto('/dashboard');
    await fresh.getByRole('heading', { name: 'Welcome back, Grace Hopper' }).waitFor();
    expect(await layoutShifts(fresh)).toBe(0);
    // The stack wrote the config into the page: no /config.json round trip before the app can start.
    expect(configFetches).toEqual([]);
    // No prerendered page is left in the signed-in dashboard.
    expect(await fresh.locator('body > [data-shell]').count()).toBe(0);
    const timing = await chunkTiming(fresh);
    expect(timing.homeRequested).not.toBeNull();
    expect(timing.homeRequested!).toBeLessThan(timing.entryArrived!);
    await context.close();
  });

  it('sends a signed-out visitor to /auth without fetching the dashboard chunks early', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/dashboard');
    await page.waitForURL('**/auth');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    // Pages only a signed-in visitor sees are not fetched early for others (the app itself still loads the
    // route's modules for the path before sending the visitor on).
    const timing = await chunkTiming(page);
    expect(timing.entryArrived).not.toBeNull();
    expect(timing.homeRequested ?? Infinity).toBeGreaterThanOrEqual(timing.entryArrived!);
    await context.close();
  });
});
