// Accessibility (docs/product.md §17.1): axe-core over every page, signed out and signed in, in the light and the dark
// theme. No serious or critical violation may remain, nor a skipped heading level. Each page is also kept
// as a screenshot artefact.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type E2E, newPage, startE2E } from './harness.ts';
import { saveScreenshot } from './screenshots.ts';
import { fillSignUpForm } from './sign-up.ts';

const PUBLIC_PAGES = [
  '/',
  '/demo',
  '/support',
  '/privacy',
  '/terms',
  '/about',
  '/careers',
  '/blog',
  '/contact',
  '/documentation',
  '/help',
  '/security',
  '/auth',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/verify',
  '/auth/callback?error=access_denied&error_description=Email+link+is+invalid+or+has+expired',
  '/no/such/page',
];
const DASHBOARD_PAGES = [
  '/dashboard',
  '/dashboard/agents',
  '/dashboard/security-automation',
  '/dashboard/alerts',
  '/dashboard/reports',
  '/dashboard/select-roles',
  '/dashboard/settings',
  '/dashboard/security-settings',
  '/dashboard/help',
  '/dashboard/no-such-page',
];
const THEMES = ['light', 'dark'] as const;
// Moderate in axe, but real barriers we hold to: a skipped heading level breaks navigation by headings.
const HELD_MODERATE_RULES = new Set(['heading-order']);

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

let e2e: E2E;
let axeSource: string;

beforeAll(async () => {
  // Auto-confirm: the e-mail round trip is auth.e2e.test.ts's business; here we only need a session.
  e2e = await startE2E({ autoconfirm: true });
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
});
afterAll(async () => {
  await e2e?.close();
});

/** Runs axe in the page (evaluated over the DevTools protocol, so the page's CSP does not block it). */
async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as {
      axe: { run(context: unknown, options: object): Promise<{ violations: Violation[] }> };
      document: unknown;
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical' || HELD_MODERATE_RULES.has(v.id),
  );
}

/**
 * Toasts, fade-ins and slide-ins animate colours and positions: contrast is measured on the final paint, once
 * every animation with an end has ended (spinners and pulses loop forever and are not waited for).
 */
async function animationsEnded(page: Page): Promise<void> {
  // Evaluated over the DevTools protocol and awaiting the animations' own promises: the page's CSP refuses the
  // string evaluation that polling with waitForFunction needs.
  await page.evaluate(async () => {
    interface Running {
      playState: string;
      effect: { getComputedTiming(): { endTime?: number | string } } | null;
      finished: Promise<unknown>;
    }
    const { document } = globalThis as unknown as { document: { getAnimations(): Running[] } };
    for (;;) {
      const ending = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime));
      if (ending.length === 0) {
        return;
      }
      // A cancelled animation rejects its promise: it has ended too.
      await Promise.allSettled(ending.map((a) => a.finished));
    }
  });
}

/** Opens a page and waits until its lazy route and data have loaded and its animations have ended. */
async function settle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor();
  await animationsEnded(page);
}

/**
 * Pages audited at once, each in a tab of its own (every tab is visible to the page) that waits for its own
 * network to fall idle: axe found the same, at every impact and page for page, as with one tab at a time.
 */
const TABS = 3;

async function audit(
  context: BrowserContext,
  label: string,
  paths: string[],
): Promise<Record<string, Violation[]>> {
  const found: Record<string, Violation[]> = {};
  const queue = [...paths];
  const tabs = await Promise.all(Array.from({ length: TABS }, () => context.newPage()));
  await Promise.all(
    tabs.map(async (page) => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        await settle(page, path);
        await saveScreenshot(page, `a11y ${label} ${path.split('?')[0]}`);
        const violations = await seriousViolations(page);
        if (violations.length > 0) {
          found[path] = violations;
        }
      }
      await page.close();
    }),
  );
  return found;
}

async function themed(theme: (typeof THEMES)[number]): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(e2e);
  await opened.context.addInitScript(`localStorage.setItem('ui-theme', '${theme}')`);
  return opened;
}

async function signUp(page: Page): Promise<void> {
  await page.goto('/auth');
  await fillSignUpForm(page, {
    fullName: 'Grace Hopper',
    company: 'Compiler Co',
    industry: 'Technology',
    email: `grace-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'cobol-1959',
  });
  await page.waitForURL('**/dashboard');
}

describe.each(THEMES)('axe in the %s theme', (theme) => {
  it('finds no serious or critical violation on the public pages, signed out', async () => {
    const { context } = await themed(theme);
    const found = await audit(context, `${theme} signed-out`, PUBLIC_PAGES);
    await context.close();
    expect(found).toEqual({});
  });

  it('finds none on the dashboard pages and the public pages, signed in', async () => {
    const { page, context } = await themed(theme);
    await signUp(page);
    const found = await audit(context, `${theme} signed-in`, [
      ...DASHBOARD_PAGES,
      '/',
      '/auth/biometric-setup',
    ]);
    await context.close();
    expect(found).toEqual({});
  });

  it('finds none with the chat panel and the mobile menu open', async () => {
    const { page, context } = await newPage(e2e, { width: 360, height: 740 });
    await context.addInitScript(`localStorage.setItem('ui-theme', '${theme}')`);
    await signUp(page);
    await settle(page, '/dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Dashboard mobile' }).waitFor();
    await animationsEnded(page);
    await saveScreenshot(page, `a11y ${theme} mobile menu`);
    const menu = await seriousViolations(page);
    await page.keyboard.press('Escape');
    await settle(page, '/');
    await page.getByRole('button', { name: 'Open support chat' }).click();
    await page.getByRole('dialog').getByText('Vigil Support').waitFor();
    await animationsEnded(page);
    await saveScreenshot(page, `a11y ${theme} chat panel`);
    const chat = await seriousViolations(page);
    await context.close();
    expect({ menu, chat }).toEqual({ menu: [], chat: [] });
  });
});
