// Responsive from 360 px (docs/product.md §17.2): at the narrowest supported width no page scrolls sideways, signed
// out or signed in. Each page is kept as a screenshot artefact.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { saveScreenshot } from './screenshots.ts';
import { fillSignUpForm } from './sign-up.ts';

const NARROW = { width: 360, height: 740 };
const PUBLIC_PAGES = ['/', '/demo', '/support', '/privacy', '/terms', '/about', '/auth', '/no/such/page'];
const DASHBOARD_PAGES = [
  '/dashboard',
  '/dashboard/agents',
  '/dashboard/security-automation',
  '/dashboard/alerts',
  '/dashboard/reports',
  '/dashboard/settings',
  '/dashboard/help',
];

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
});
afterAll(async () => {
  await e2e?.close();
});

/** The paths whose document is wider than the viewport, with how wide it is. */
async function overflowing(page: Page, label: string, paths: string[]): Promise<Record<string, number>> {
  const wide: Record<string, number> = {};
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.locator('h1').first().waitFor();
    await saveScreenshot(page, `360px ${label} ${path}`);
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    if (width > NARROW.width) {
      wide[path] = width;
    }
  }
  return wide;
}

describe('at 360 px', () => {
  it('no public page scrolls sideways', async () => {
    const { page, context } = await newPage(e2e, NARROW);
    const wide = await overflowing(page, 'signed-out', PUBLIC_PAGES);
    await context.close();
    expect(wide).toEqual({});
  });

  it('no dashboard page scrolls sideways', async () => {
    const { page, context } = await newPage(e2e, NARROW);
    await page.goto('/auth');
    await fillSignUpForm(page, {
      fullName: 'Hedy Lamarr',
      company: 'Frequency Hopping Inc',
      email: `hedy-${Date.now()}@example.com`,
      password: 'spread-spectrum',
    });
    await page.waitForURL('**/dashboard');
    const wide = await overflowing(page, 'signed-in', DASHBOARD_PAGES);
    await context.close();
    expect(wide).toEqual({});
  });
});
