// Intrusive checks only with the owner's consent (docs/product.md §10.1, docs/scanners/checks.md §2), as a
// customer meets it in Security Automation: a new target's switch is off and its scans write nothing, and
// Recent Scans says the intrusive checks were not run; turning the switch on first shows what it allows
// (and Cancel leaves it off); once allowed, the next scan proves the write, cleans up, and says it ran them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createServiceClient } from '../../agents/queue/client.ts';
import { type Agent, startAgent } from '../../agents/worker/agent.ts';
import { type E2E, newPage, startE2E } from './harness.ts';
import { toast } from './locators.ts';
import { signUpWithAgents } from './sign-up.ts';
import { addVerifiedWebTarget } from './targets.ts';

/** A site whose root takes PUT and DELETE from anyone, in memory, serving the owner's verification token. */
async function writableSite() {
  const state = { token: null as string | null, writes: [] as string[], files: new Map<string, string>() };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (path === '/.well-known/vigil-verification.txt' && state.token) {
        res.end(`${state.token}\n`);
      } else if (req.method === 'PUT' && path.length > 1) {
        state.writes.push(path);
        state.files.set(path, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(201).end();
      } else if (req.method === 'DELETE' && state.files.delete(path)) {
        res.writeHead(204).end();
      } else if (req.method === 'GET' && state.files.has(path)) {
        res.setHeader('content-type', 'text/plain');
        res.end(state.files.get(path));
      } else if (req.method === 'GET' && path === '/') {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><html><head><title>Files</title></head><body><h1>Files</h1></body></html>');
      } else {
        res.writeHead(404).end('not found');
      }
    });
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
let site: Awaited<ReturnType<typeof writableSite>>;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
  site = await writableSite();
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
  await site?.close();
  await e2e?.close();
});

async function signedIn(page: Page): Promise<void> {
  await signUpWithAgents(e2e, page, {
    fullName: 'Grace Hopper',
    company: 'Compilers',
    email: `grace-${Date.now()}@example.com`,
    password: 'cobol-and-bugs-1947',
  });
}

describe('consent to intrusive checks', () => {
  it(
    'is off until the owner allows it after a warning, and Recent Scans says what each scan ran',
    { timeout: 300_000 },
    async () => {
      const { page, context } = await newPage(e2e);
      await signedIn(page);
      await page.goto('/dashboard/security-automation');
      const web = page.getByRole('region', { name: 'Web Application Scanner' });
      const item = await addVerifiedWebTarget(page, site.url, (token) => (site.token = token));
      // A tiny local site: the customer's highest rate, so the scans take seconds (pacing has its own tests).
      await e2e.stack.ctx.db.query('update public.scan_targets set rate_limit = 100 where value = $1', [
        site.url,
      ]);

      const consent = item.getByRole('switch', { name: /Intrusive checks/ });
      expect(await consent.getAttribute('aria-checked')).toBe('false');
      await item.getByText('off: scans only read from this target').waitFor();

      // Without consent: nothing written, and the scan says the intrusive checks were not run.
      await web.getByRole('button', { name: 'Start Scan' }).click();
      await toast(page, 'Scan Completed').waitFor({ timeout: 180_000 });
      const recent = page.getByRole('region', { name: 'Recent Scans' });
      await recent
        .getByText('Checks: passive, active · intrusive not run (not allowed for this target)')
        .first()
        .waitFor({ timeout: 30_000 });
      expect(site.writes).toEqual([]);

      // Turning it on asks first and says what it allows; Cancel leaves it off.
      await consent.click();
      const warning = item.getByRole('alert').filter({ hasText: 'Allow checks that change this target?' });
      await warning.getByText(/write uniquely named\s+test files/).waitFor();
      await warning.getByText(/only for a target you own/).waitFor();
      await warning.getByRole('button', { name: 'Cancel' }).click();
      await warning.waitFor({ state: 'detached' });
      expect(await consent.getAttribute('aria-checked')).toBe('false');
      const stored = async () =>
        (
          await e2e.stack.ctx.db.query<{ allow_intrusive: boolean }>(
            'select allow_intrusive from public.scan_targets where value = $1',
            [site.url],
          )
        ).rows[0]!.allow_intrusive;
      expect(await stored()).toBe(false);

      await consent.click();
      await warning.getByRole('button', { name: 'Allow intrusive checks' }).click();
      await toast(page, 'Intrusive checks allowed').waitFor();
      await item.getByText(/^allowed since /).waitFor();
      expect(await stored()).toBe(true);
      // It holds across a reload: the database's, not the page's.
      await page.reload();
      await page
        .getByRole('listitem', { name: site.url })
        .getByText(/^allowed since /)
        .waitFor();

      // With consent: the write is proven with markers of the scan's own, all removed again.
      await page
        .getByRole('region', { name: 'Web Application Scanner' })
        .getByRole('button', { name: 'Start Scan' })
        .click();
      await toast(page, 'Scan Completed').waitFor({ timeout: 180_000 });
      await page
        .getByRole('region', { name: 'Recent Scans' })
        .getByText('Checks: passive, active, intrusive', { exact: true })
        .first()
        .waitFor({ timeout: 30_000 });
      expect(site.writes.length).toBeGreaterThan(0);
      expect(site.writes.every((p) => p.includes('/vigil-write-probe-'))).toBe(true);
      expect([...site.files.keys()]).toEqual([]);

      // Turned off again at once, without a question.
      await page
        .getByRole('listitem', { name: site.url })
        .getByRole('switch', { name: /Intrusive checks/ })
        .click();
      await toast(page, 'Intrusive checks off').waitFor();
      expect(await stored()).toBe(false);
      await context.close();
    },
  );
});
