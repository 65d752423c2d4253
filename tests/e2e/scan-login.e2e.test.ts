// Authenticated scanning (docs/product.md §10.1) as a customer sets it up: a login saved on a website target in
// Security Automation is never shown back (not in the form, not on the page); the next scan logs in with
// it, finds what only a logged-in visitor can see, says so in Recent Scans, and never logs itself out.
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

const password = 'a-long-shop-password-7';

interface Shop {
  url: string;
  token: string | null;
  /** Requests that carried a valid session, and logout requests (which must stay at none). */
  loggedIn: number;
  logouts: number;
  close(): Promise<void>;
}

/** A classic shop: a login form (with a CSRF field) setting a session cookie, and an account page. */
async function shop(): Promise<Shop> {
  const sessions = new Set<string>();
  const state = { token: null as string | null, loggedIn: 0, logouts: 0 };
  const page = (body: string) =>
    `<!doctype html><html><head><title>Shop</title></head><body>${body}</body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const sid = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(req.headers.cookie ?? '')?.[1];
    const session = sid !== undefined && sessions.has(sid);
    if (session) {
      state.loggedIn += 1;
    }
    res.setHeader('content-type', 'text/html');
    if (url.pathname === '/.well-known/vigil-verification.txt' && state.token) {
      res.end(`${state.token}\n`);
    } else if (url.pathname === '/') {
      res.end(page('<h1>Shop</h1><a href="/login">Log in</a>'));
    } else if (url.pathname === '/login' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (
          form.get('username') === 'owner' &&
          form.get('password') === password &&
          form.get('csrf') === 'k3y'
        ) {
          const id = crypto.randomUUID().replaceAll('-', '');
          sessions.add(id);
          res
            .writeHead(303, {
              location: '/account',
              'set-cookie': `sid=${id}; Path=/; HttpOnly; SameSite=Lax`,
            })
            .end();
        } else {
          res.writeHead(200).end(page('<p>Wrong user name or password.</p>'));
        }
      });
    } else if (url.pathname === '/login') {
      res.end(
        page(
          '<form method="post" action="/login"><input type="hidden" name="csrf" value="k3y"><input name="username"><input name="password" type="password"><button type="submit">Log in</button></form>',
        ),
      );
    } else if (url.pathname === '/logout') {
      state.logouts += 1;
      if (sid) {
        sessions.delete(sid);
      }
      res.writeHead(303, { location: '/' }).end();
    } else if (url.pathname === '/account' && session) {
      // Only a logged-in visitor sees the storage key the shop's account page leaks.
      res.end(page('<h1>Your account</h1><p>Backups: AKIAZ3Q5T7W9RB2MX4KD</p><a href="/logout">Log out</a>'));
    } else if (url.pathname === '/account') {
      res.writeHead(303, { location: '/login' }).end();
    } else {
      res.writeHead(404).end(page('not found'));
    }
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
let target: Shop;

beforeAll(async () => {
  e2e = await startE2E({ autoconfirm: true });
  target = await shop();
  // The worker opens saved logins with the stack's credentials key, as `npm start` runs it.
  agent = startAgent({
    db: createServiceClient(e2e.stack.url, e2e.stack.status.service_role_key),
    mode: 'local',
    credentialsKey: e2e.stack.ctx.credentialsKey,
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

async function signedIn(page: Page): Promise<void> {
  await signUpWithAgents(e2e, page, {
    fullName: 'Ada Lovelace',
    company: 'Analytical Engines',
    email: `ada-${Date.now()}@example.com`,
    password: 'difference-engine-1843',
  });
}

describe('authenticated scanning', () => {
  it(
    'saves a login that is never shown back, and the scan runs logged in',
    { timeout: 240_000 },
    async () => {
      const { page, context } = await newPage(e2e);
      await signedIn(page);
      await page.goto('/dashboard/security-automation');
      const web = page.getByRole('region', { name: 'Web Application Scanner' });
      const item = await addVerifiedWebTarget(page, target.url, (token) => (target.token = token));
      await item.getByText('Scans do not log in to this site.').waitFor();

      // A login page on another site is refused with the reason, before anything is stored.
      await item.getByRole('button', { name: 'Add login' }).click();
      const form = item.getByRole('form', { name: 'Scan login' });
      await form.getByLabel('Login page URL').fill('https://elsewhere.example/login');
      await form.getByLabel('User name field').fill('username');
      await form.getByLabel('Password field').fill('password');
      await form.getByLabel('User name', { exact: true }).fill('owner');
      await form.getByLabel('Password', { exact: true }).fill(password);
      await form.getByLabel('Logged-in text (optional)').fill('Log out');
      await form.getByRole('button', { name: 'Save login' }).click();
      await toast(page, 'Login not saved')
        .getByText(/target's own site/)
        .waitFor();

      await form.getByLabel('Login page URL').fill(`${target.url}/login`);
      await form.getByRole('button', { name: 'Save login' }).click();
      await toast(page, 'Login saved').waitFor();
      await item.getByText(`Scans log in with a login form at ${target.url}/login`).waitFor();
      // Never shown back: not on the page, not in a fresh form, not in what the page can read.
      expect(await page.content()).not.toContain(password);
      await item.getByRole('button', { name: 'Replace login' }).click();
      for (const label of ['User name', 'Password']) {
        expect(await form.getByLabel(label, { exact: true }).inputValue()).toBe('');
      }
      await form.getByRole('button', { name: 'Cancel' }).click();
      const readable = await page.evaluate(async () => {
        const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
        const session = JSON.parse(localStorage.getItem(key)!) as { access_token: string };
        const config = (await (await fetch('/config.json')).json()) as { supabaseAnonKey: string };
        const headers = { apikey: config.supabaseAnonKey, authorization: `Bearer ${session.access_token}` };
        const logins = await fetch('/rest/v1/scan_target_logins?select=*', { headers });
        const targets = await fetch('/rest/v1/scan_targets?select=*', { headers });
        return { logins: logins.status, targets: await targets.text() };
      });
      expect([401, 403]).toContain(readable.logins);
      expect(readable.targets).not.toContain(password);
      expect(readable.targets).not.toContain('"owner"');

      // The customer's highest rate (100/s, not the default 10/s), which the API lets them set: this test is
      // about the login; pacing has its own tests.
      await e2e.stack.ctx.db.query('update public.scan_targets set rate_limit = 100 where value = $1', [
        target.url,
      ]);
      await web.getByRole('button', { name: 'Start Scan' }).click();
      await toast(page, 'Scan Started').waitFor();
      await toast(page, 'Scan Completed').waitFor({ timeout: 180_000 });
      const recent = page.getByRole('region', { name: 'Recent Scans' });
      await recent
        .getByText(/· logged in$/)
        .first()
        .waitFor({ timeout: 30_000 });
      expect(target.loggedIn).toBeGreaterThan(0);
      expect(target.logouts).toBe(0);

      // What only the logged-in scan could see reaches the Alerts page.
      await page.goto('/dashboard/alerts');
      const events = page.getByRole('region', { name: 'Security Events' });
      await events.getByRole('button', { name: /event: .*AWS access key/i }).waitFor({ timeout: 30_000 });
      await context.close();
    },
  );
});
