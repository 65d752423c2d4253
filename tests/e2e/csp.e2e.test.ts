// The content security policy (shared/csp.ts) holds without a single reported violation (docs/product.md §17.3): Chromium
// lists each one as a DevTools issue, which Lighthouse's best-practices score counts. This catches code that
// tries what the policy forbids even when it recovers (zod probing `new Function`, an inline script or style).
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

/** Collects the CSP issues Chromium reports for the page from now on. */
async function watchCsp(page: Page): Promise<string[]> {
  const issues: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') {
      issues.push(`${page.url()}: ${JSON.stringify(issue.details.contentSecurityPolicyIssueDetails)}`);
    }
  });
  await cdp.send('Audits.enable');
  return issues;
}

async function visit(page: Page, path: string): Promise<void> {
  // A full load each time: every page starts its own modules, as a visitor arriving there would.
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor();
}

describe('content security policy', () => {
  it('sends the strict policy with every page', async () => {
    const response = await fetch(`${e2e.stack.url}/auth`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('is never violated on the public pages, the auth forms or the dashboard', async () => {
    const { context, page } = await newPage(e2e);
    const issues = await watchCsp(page);
    for (const path of ['/', '/auth', '/auth/forgot-password', '/support', '/demo']) {
      await visit(page, path);
    }
    // The forms validate with zod on submit: an empty sign-in runs every schema path.
    await visit(page, '/auth');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Email is required').first().waitFor();
    await fillSignUpForm(page, {
      fullName: 'Ada Lovelace',
      company: 'Engines Ltd',
      email: `ada-${Date.now()}@example.com`,
      password: 'analytical-1843',
    });
    await page.waitForURL('**/dashboard');
    for (const path of ['/dashboard', '/dashboard/settings', '/dashboard/agents']) {
      await visit(page, path);
    }
    await context.close();
    expect(issues).toEqual([]);
  });
});
