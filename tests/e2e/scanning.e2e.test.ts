// Security Automation (docs/product.md §2, §4, §5, §8): a signed-in customer adds a target served by a tiny
// deliberately vulnerable server on 127.0.0.1, proves it theirs with the token at
// /.well-known/vigil-verification.txt, starts a scan, watches its progress, gets the completion toast,
// and sees the alert and the recommendation on the Alerts page. A real agent worker runs the scan.
// Scanning is paid (docs/product.md §14): without an agent covering a scanner the page says which agent it needs
// and links to the agents page, and nothing is verified or scanned.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createServiceClient } from '../../agents/queue/client.ts';
import { type Agent, startAgent } from '../../agents/worker/agent.ts';
import { SCANNING_AGENTS } from '../helpers/agents.ts';
import { selectAndCheckOut } from './checkout-support.ts';
import { type E2E, newPage, startE2E } from './harness.ts';
import { toast } from './locators.ts';
import { signUpWithAgents } from './sign-up.ts';

interface VulnerableServer {
  url: string;
  token: string | null;
  delayMs: number;
  close(): Promise<void>;
}

/** Exposes /.git/HEAD (high) and /.env (critical); answers slowly enough that progress can be seen. */
async function vulnerableServer(): Promise<VulnerableServer> {
  const state = { token: null as string | null, delayMs: 0 };
  const server = http.createServer((req, res) => {
    setTimeout(() => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/.well-known/vigil-verification.txt' && state.token) {
        res.end(`${state.token}\n`);
      } else if (path === '/.git/HEAD') {
        res.end('ref: refs/heads/main\n');
      } else if (path === '/.env') {
        res.end('APP_ENV=production\nDB_PASSWORD=hunter2\n');
      } else if (path === '/') {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>');
      } else {
        res.statusCode = 404;
        res.end('not found');
      }
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

let e2e: E2E;
let agent: Agent;
let target: VulnerableServer;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
  target = await vulnerableServer();
  // One agent worker in process, in local mode (loopback targets allowed), as `npm start` runs it.
  agent = startAgent({
    db: createServiceClient(e2e.stack.url, e2e.stack.status.service_role_key),
    mode: 'local',
    pollMs: 100,
    dutyMs: 3_600_000,
    log: () => {},
  });
});
afterAll(async () => {
  await agent?.stop();
  await target?.close();
  await e2e?.close();
});

/** Signs a new customer up; unless told otherwise they have trialing agents covering every scanner. */
async function signedIn(page: Page, agents = SCANNING_AGENTS): Promise<void> {
  await signUpWithAgents(
    e2e,
    page,
    {
      fullName: 'Grace Hopper',
      company: 'Cobol Works',
      email: `grace-${Date.now()}@example.com`,
      password: 'compiler-1952',
    },
    agents,
  );
}

describe('security automation', () => {
  it('sends visitors to sign in', async () => {
    const { page, context } = await newPage(e2e);
    await page.goto('/dashboard/security-automation');
    await page.waitForURL('**/auth');
    await context.close();
  });

  it(
    'shows a customer without an agent which agent each scanner needs, and unlocks it after checkout',
    { timeout: 120_000 },
    async () => {
      const { page, context } = await newPage(e2e);
      await signedIn(page, []);
      await page.goto('/dashboard/security-automation');
      const needs = {
        'Web Application Scanner': 'Penetration Tester or Application Security',
        'Infrastructure Scanner': 'Penetration Tester or Cloud Security',
        'API Security Scanner': 'Penetration Tester or Application Security',
      };
      for (const [name, agents] of Object.entries(needs)) {
        const card = page.getByRole('region', { name });
        const notice = card.getByRole('alert').filter({ hasText: 'Needs an active agent' });
        await notice
          .getByText(`The ${name} comes with the ${agents} agent. Activate one to run its scans.`)
          .waitFor();
        expect(await card.getByRole('button', { name: 'Start Scan' }).isDisabled()).toBe(true);
        expect(await card.getByRole('button', { name: 'Initialize' }).count()).toBe(0);
      }
      // Nothing was set up behind the notice.
      expect(await toast(page, 'Scanner Initialized').count()).toBe(0);

      // Verifying a target is refused with the server's words: what to activate, and where.
      await page.getByLabel('Target type').selectOption('url');
      await page.getByLabel('Website URL').fill(target.url);
      await page.getByRole('button', { name: 'Add Target' }).click();
      const item = page.getByRole('listitem', { name: target.url });
      await item.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Verification failed')
        .getByText(
          'Web application scans need an active Penetration Tester or Application Security agent. Activate one on the Agents page.',
        )
        .waitFor();
      expect(await item.getByText('Not verified').count()).toBe(1);

      // The way to activate: the agents page, then checkout; the scanners unlock and set themselves up.
      const web = page.getByRole('region', { name: 'Web Application Scanner' });
      await web.getByRole('link', { name: 'Activate an agent' }).click();
      await page.waitForURL('**/dashboard/agents');
      await page.getByRole('heading', { name: 'AI Security Agents' }).waitFor();
      await selectAndCheckOut(page, ['Application Security']);
      await page.getByText('Subscription Successful!', { exact: true }).first().waitFor();
      await page.goto('/dashboard/security-automation');
      await web.getByText('Initialized', { exact: true }).waitFor();
      expect(await web.getByText('Needs an active agent').count()).toBe(0);
      // Application Security does not cover infrastructure scans.
      await page
        .getByRole('region', { name: 'Infrastructure Scanner' })
        .getByText('Needs an active agent')
        .waitFor();
      await context.close();
    },
  );

  it(
    'verifies a target, scans it with live progress and shows the results on the Alerts page',
    { timeout: 240_000 },
    async () => {
      const { page, context } = await newPage(e2e, { width: 390, height: 844 });
      await signedIn(page);
      await page.goto('/dashboard/security-automation');
      await page.getByRole('heading', { name: 'Security Automation', level: 1 }).waitFor();
      await page.getByText('Manage automated security testing and remediation').waitFor();
      await page
        .getByText('Scans run automatically every 24 hours and can also be triggered manually.')
        .waitFor();
      for (const name of ['Web Application Scanner', 'Infrastructure Scanner', 'API Security Scanner']) {
        await page.getByRole('region', { name }).waitFor();
      }
      // Signed in: the scanners initialise by themselves.
      await toast(page, 'Scanner Initialized').waitFor();
      const web = page.getByRole('region', { name: 'Web Application Scanner' });
      await web.getByText('Initialized', { exact: true }).waitFor();
      expect(await web.getByRole('button', { name: 'Start Scan' }).isDisabled()).toBe(true);

      // Add the target; a bad URL is refused before any call.
      await page.getByLabel('Target type').selectOption('url');
      await page.getByLabel('Website URL').fill('not a url');
      await page.getByRole('button', { name: 'Add Target' }).click();
      await page.getByText('Enter a full URL starting with http:// or https://.').waitFor();
      await page.getByLabel('Website URL').fill(target.url);
      await page.getByRole('button', { name: 'Add Target' }).click();
      const item = page.getByRole('listitem', { name: target.url });
      await item.getByText('Not verified').waitFor();
      await item.getByText(`${target.url}/.well-known/vigil-verification.txt`).waitFor();

      // Without the token served, verification fails and says why.
      await item.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Verification failed').waitFor({ timeout: 30_000 });
      expect(await item.getByText('Not verified').count()).toBe(1);

      target.token = await item.getByLabel(`Verification token for ${target.url}`).inputValue();
      expect(target.token).toMatch(/^[0-9a-f]{64}$/);
      await item.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Target verified').waitFor({ timeout: 30_000 });
      await item.getByText('Verified', { exact: true }).waitFor();

      // Start a scan and watch it run.
      target.delayMs = 40;
      await web.getByLabel('Target').waitFor();
      await web.getByRole('button', { name: 'Start Scan' }).click();
      await toast(page, 'Scan Started').waitFor();
      const progress = web.getByRole('progressbar', { name: 'Web Application Scanner progress' });
      await progress.waitFor({ timeout: 30_000 });
      await web.getByText('Requests/s:').waitFor();
      await web.getByText('Time left:').waitFor();
      expect(await web.getByRole('button', { name: 'Stop Scan' }).isEnabled()).toBe(true);

      // Completion: a destructive toast naming the severity (the exposed .env is critical).
      const done = page.locator('.destructive').filter({ hasText: 'Scan Completed' });
      await done.waitFor({ timeout: 180_000 });
      expect(await done.textContent()).toContain('Severity level: Critical');
      await web.getByText('Severity: Critical').waitFor();
      const recent = page.getByRole('region', { name: 'Recent Scans' });
      await recent.getByRole('cell', { name: 'Completed' }).first().waitFor();

      // The Alerts page shows the open event and the recommendation, each opening its findings.
      await page.goto('/dashboard/alerts');
      await page.getByRole('heading', { name: 'Security Alerts', level: 1 }).waitFor();
      const events = page.getByRole('region', { name: 'Security Events' });
      const envEvent = events.getByRole('button', { name: /critical event: .*\.env/i });
      await envEvent.waitFor({ timeout: 30_000 });
      const recommendations = page.getByRole('region', { name: 'Security Recommendations' });
      await recommendations
        .getByRole('button', { name: /^Recommendation: / })
        .first()
        .waitFor({ timeout: 30_000 });

      await envEvent.click();
      const sheet = page.getByRole('dialog');
      await sheet.getByRole('heading', { name: 'Evidence' }).first().waitFor();
      await sheet.getByRole('heading', { name: 'Remediation' }).first().waitFor();
      expect(await sheet.textContent()).toContain('DB_PASSWORD');
      await sheet.getByRole('button', { name: 'Close' }).click();
      await sheet.waitFor({ state: 'detached' });

      await recommendations
        .getByRole('button', { name: /^Recommendation: / })
        .first()
        .click();
      await page.getByRole('dialog').getByRole('heading', { name: 'Remediation' }).first().waitFor();
      await context.close();
    },
  );

  it('stops a running scan', { timeout: 120_000 }, async () => {
    const { page, context } = await newPage(e2e);
    await signedIn(page);
    await page.goto('/dashboard/security-automation');
    const web = page.getByRole('region', { name: 'Web Application Scanner' });
    await web.getByText('Initialized', { exact: true }).waitFor();
    target.token = null;
    await page.getByLabel('Website URL').fill(target.url);
    await page.getByRole('button', { name: 'Add Target' }).click();
    const item = page.getByRole('listitem', { name: target.url });
    target.token = await item.getByLabel(`Verification token for ${target.url}`).inputValue();
    await item.getByRole('button', { name: 'Verify' }).click();
    await item.getByText('Verified', { exact: true }).waitFor({ timeout: 30_000 });

    target.delayMs = 1_500;
    await web.getByRole('button', { name: 'Start Scan' }).click();
    await toast(page, 'Scan Started').waitFor();
    await web.getByRole('progressbar').waitFor({ timeout: 30_000 });
    await web.getByRole('button', { name: 'Stop Scan' }).click();
    await toast(page, 'Scan Stopped').waitFor();
    await web.getByText('Stopped', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await web.getByRole('button', { name: 'Start Scan' }).isEnabled()).toBe(true);
    target.delayMs = 0;

    // A tool action through security-tool-orchestration.
    await web.getByRole('button', { name: 'Check Status' }).click();
    await toast(page, 'Tool Action Completed').getByText('Successfully performed status on webapp').waitFor();
    await context.close();
  });
});
