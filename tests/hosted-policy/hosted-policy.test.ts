// docs/product.md §17.9, as an attacker found it broken: `npm start` with VIGIL_LOCAL_MODE=false used to run its
// in-process worker in local mode, and ownership verification then fetched from loopback, metadata and
// private addresses and marked them verified. Here the real `npm start` (scripts/start.ts) runs with the
// hosted policy inside private namespaces (tests/hosted-policy/run.sh), a customer drives it through the
// API with supabase-js, and a listener on every forbidden address proves that nothing reached it: not
// verification, not a webapp, API or infrastructure scan, not a redirect from an allowed server, not a name
// that resolves to a forbidden address.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FunctionsHttpError } from '@supabase/supabase-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { chromium } from '../fixtures/debian-packages.ts';
import { requires } from '../helpers/requirements.ts';

/** Addresses hosted scans must never reach, each with a listener; `shop.example` is the allowed one. */
const FORBIDDEN = [
  '127.0.0.1',
  '::1',
  '10.0.0.5',
  '192.168.1.10',
  '172.16.0.1',
  '100.64.0.1',
  '169.254.169.254',
  'fd00::5',
];
const PORTS = [80, 443, 8081];
const PUBLIC = '93.184.216.34';
const PUBLIC_PORT = 8080;

interface Hit {
  address: string;
  port: number;
  from: string;
}
const hits: Hit[] = [];
const listeners: net.Server[] = [];
const publicServers: http.Server[] = [];
/** Tokens the allowed server proves, and what it answers otherwise (a redirect to a forbidden address). */
const tokens = new Set<string>();

/**
 * A page on the allowed server whose JavaScript reaches for every forbidden address in every way a page
 * can (fetch, beacons, WebSockets, preconnects, images, frames, scripts, forms, navigation) and whose own
 * requests redirect there: the browser crawl renders it in hosted mode, and nothing may arrive.
 */
const HOSTILE_APP: Record<string, { status: number; headers: Record<string, string>; body?: string }> = {
  '/app/': {
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: `<!doctype html><html><head><title>Shop</title>
<link rel="preconnect" href="http://127.0.0.1:8081"><link rel="dns-prefetch" href="http://internal.example">
<link rel="stylesheet" href="http://10.0.0.5/style.css"><script src="/app/main.js"></script></head>
<body><img src="http://169.254.169.254/latest/meta-data/"><iframe src="http://192.168.1.10:8081/"></iframe>
<a href="http://127.0.0.1:8081/admin">admin</a><a href="/app/away">away</a>
<form id="f" method="post" action="http://[fd00::5]/"><input name="a" value="1"></form></body></html>`,
  },
  '/app/main.js': {
    status: 200,
    headers: { 'content-type': 'application/javascript' },
    body: `for (const u of ['http://127.0.0.1:8081/x', 'http://[::1]:8081/y', 'http://100.64.0.1/z', 'http://metadata.example/m', '/app/api/redirect']) { fetch(u).catch(() => {}); }
try { navigator.sendBeacon('http://172.16.0.1:8081/beacon', 'x'); } catch (e) {}
try { new WebSocket('ws://127.0.0.1:8081/socket'); } catch (e) {}
const s = document.createElement('script'); s.src = '/app/redirected.js'; document.head.appendChild(s);
const x = new XMLHttpRequest(); x.open('GET', 'http://10.0.0.5/xhr'); x.send();
history.pushState({}, '', '/app/route');
setTimeout(() => { document.getElementById('f').submit(); }, 50);`,
  },
  '/app/api/redirect': { status: 302, headers: { location: 'http://127.0.0.1:8081/api' } },
  '/app/redirected.js': { status: 302, headers: { location: 'http://10.0.0.5/evil.js' } },
  '/app/away': { status: 302, headers: { location: 'http://169.254.169.254/latest/' } },
  '/app/route': { status: 302, headers: { location: 'http://127.0.0.1:8081/route' } },
};

let stack: ChildProcess;
let apiUrl = '';
let anonKey = '';
let serviceKey = '';
let webDir = '';
let customer: SupabaseClient;
let admin: SupabaseClient;
let userId = '';
let output = '';

async function listen(address: string, port: number): Promise<void> {
  const server = net.createServer((socket) => {
    hits.push({ address, port, from: socket.remoteAddress ?? '' });
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, address, resolve));
  listeners.push(server);
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const client = (key: string) =>
  createClient(apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null && v !== undefined) {
      return v;
    }
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${what}\n--- npm start output ---\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function scanner(body: Record<string, unknown>) {
  const { data, error } = (await customer.functions.invoke('security-scanner-integration', { body })) as {
    data: Record<string, unknown> | null;
    error: unknown;
  };
  if (error) {
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data! };
}

// At the highest rate a customer may set (100/s, not the default 10/s): what this suite proves is where
// requests go, not their pace (the rate-limit suite proves that), and a full web scan is ~150+ requests.
async function addTarget(kind: 'url' | 'host' | 'api', value: string) {
  const { data, error } = await customer
    .from('scan_targets')
    .insert({ kind, value, rate_limit: 100 })
    .select('id, verification_token')
    .single<{ id: string; verification_token: string }>();
  if (error) {
    throw new Error(`adding ${value}: ${error.message}`);
  }
  return data;
}

beforeAll(async () => {
  for (const address of FORBIDDEN) {
    for (const port of PORTS) {
      await listen(address, port);
    }
  }
  // The allowed server: proves the tokens it was given, answers everything else with a redirect to a
  // forbidden address, and its OpenAPI document points the API scanner at a private one.
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const hostile = HOSTILE_APP[req.url ?? ''];
    if (hostile) {
      res.writeHead(hostile.status, hostile.headers).end(hostile.body ?? '');
    } else if (req.url === '/.well-known/vigil-verification.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end([...tokens].join('\n'));
    } else if (req.url === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          openapi: '3.0.0',
          info: { title: 'shop', version: '1' },
          servers: [{ url: 'http://10.0.0.5/api' }],
          paths: { '/orders': { get: { responses: { '200': { description: 'ok' } } } } },
        }),
      );
    } else {
      res.writeHead(302, { location: 'http://127.0.0.1:8081/admin' }).end();
    }
  };
  // Port 80 for the host target's ownership check, PUBLIC_PORT for the web and API targets.
  for (const port of [PUBLIC_PORT, 80]) {
    const server = http.createServer(answer);
    await new Promise<void>((r) => server.listen(port, PUBLIC, r));
    publicServers.push(server);
  }

  // npm start, as a user runs it, with the hosted policy; a placeholder web app so it does not build one.
  webDir = await mkdtemp(path.join(tmpdir(), 'vigil-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Vigil</title>');
  const port = await freePort();
  stack = spawn('npx', ['tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      VIGIL_LOCAL_MODE: 'false',
      VIGIL_DATA_DIR: 'memory',
      VIGIL_PORT: String(port),
      VIGIL_AUTOCONFIRM: 'true',
      VIGIL_WEB_DIR: webDir,
      CI: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: npx starts tsx, which starts node; killing npx alone left them running.
    detached: true,
  });
  stack.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  stack.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  apiUrl = await waitFor('npm start', () => {
    const m = /Vigil is running at (http:\/\/[^\s]+)/.exec(output);
    return Promise.resolve(m?.[1]);
  });
  const status = (await (await fetch(`${apiUrl}/_stack/status`)).json()) as Record<string, string>;
  anonKey = status.anon_key!;
  serviceKey = status.service_role_key!;
  admin = client(serviceKey);
  customer = client(anonKey);
  const signedUp = await customer.auth.signUp({ email: 'hosted@example.com', password: 'hosted-policy-1' });
  expect(signedUp.error).toBeNull();
  userId = signedUp.data.user!.id;
  // Agents covering every scan type, applied as the payment webhook applies them.
  const { data: roles } = await admin.from('agent_roles').select('id');
  const applyEvent = (await admin.rpc('billing_apply_event', {
    p_event_id: 'evt_hosted_policy',
    p_event_type: 'customer.subscription.updated',
    p_event_created: new Date().toISOString(),
    p_state: {
      user_id: userId,
      role_ids: (roles ?? []).map((r: { id: string }) => r.id),
      provider_subscription_id: 'sub_hosted',
      provider_customer_id: 'cus_hosted',
      status: 'trialing',
      trial_ends_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      current_period_ends_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      cancel_at_period_end: false,
      monthly_amount: 0,
    },
  })) as { data: unknown; error: unknown };
  expect(applyEvent.error).toBeNull();
  expect(applyEvent.data).toBe('applied');
  for (const toolType of ['webapp', 'api', 'infrastructure']) {
    expect((await scanner({ action: 'initialize', toolType })).status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-stack!.pid!, signal);
    } catch {
      // The group has already exited.
    }
  };
  if (stack?.pid !== undefined) {
    group('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    group('SIGKILL');
  }
  for (const s of [...listeners, ...publicServers]) {
    await new Promise((r) => s.close(r));
  }
  if (webDir) {
    await rm(webDir, { recursive: true, force: true });
  }
});

/** Targets that name a forbidden address in every spelling the attacker used, and names resolving to one. */
const FORBIDDEN_URLS = [
  'http://127.0.0.1:8081',
  'http://[::1]:8081',
  'http://0x7f000001:8081',
  'http://2130706433:8081',
  'http://127.1:8081',
  'http://[::ffff:127.0.0.1]:8081',
  'http://0.0.0.0:8081',
  'http://169.254.169.254',
  'http://10.0.0.5',
  'http://100.64.0.1',
  'http://[fd00::5]',
  'http://rebind.example:8081',
  'http://internal.example',
  'http://metadata.example',
];
const FORBIDDEN_HOSTS = [
  '127.0.0.1',
  '10.0.0.5',
  '192.168.1.10',
  '172.16.0.1',
  '169.254.169.254',
  'rebind.example',
  'internal.example',
];

describe('npm start with VIGIL_LOCAL_MODE=false', () => {
  it('refuses to verify any target on a forbidden address, and sends it nothing', async () => {
    const targets = [
      ...(await Promise.all(FORBIDDEN_URLS.map((v) => addTarget('url', v)))),
      ...(await Promise.all(FORBIDDEN_HOSTS.map((v) => addTarget('host', v)))),
    ];
    for (const t of targets) {
      tokens.add(t.verification_token);
    }
    for (const t of targets) {
      const res = await scanner({ action: 'verify_target', toolType: 'webapp', target: t.id });
      expect(res.body.verified ?? false).toBe(false);
    }
    const rows = await waitFor('every verification to finish', async () => {
      const { data } = await customer.from('scan_targets').select('value, verified_at, verification_error');
      const list = (data ?? []) as {
        value: string;
        verified_at: string | null;
        verification_error: string | null;
      }[];
      return list.every((r) => r.verified_at !== null || r.verification_error !== null) ? list : null;
    });
    for (const row of rows) {
      expect({ value: row.value, verified: row.verified_at !== null }).toEqual({
        value: row.value,
        verified: false,
      });
      expect(row.verification_error).toMatch(/This target cannot be scanned/);
    }
    expect(hits).toEqual([]);
  });

  it('refuses every scanner on a forbidden address, even for a target verified before (a DNS rebinding)', async () => {
    // Ownership proven by DNS while the names resolved to a public address; now they resolve to forbidden
    // ones. The agents must check the address they connect to, at scan time.
    const rebound = [
      { kind: 'url', value: 'http://rebind.example:8081', tool: 'webapp' },
      { kind: 'api', value: 'http://internal.example', tool: 'api' },
      { kind: 'host', value: 'metadata.example', tool: 'infrastructure' },
    ] as const;
    for (const t of rebound) {
      const { data: row } = await admin
        .from('scan_targets')
        .select('id')
        .eq('user_id', userId)
        .eq('value', t.value)
        .maybeSingle<{ id: string }>();
      const id = row?.id ?? (await addTarget(t.kind, t.value)).id;
      await admin
        .from('scan_targets')
        .update({
          verified_at: new Date().toISOString(),
          verification_method: 'dns',
          verification_error: null,
        })
        .eq('id', id);
      const started = await scanner({ action: 'start_scan', toolType: t.tool, target: id });
      expect(started.status).toBe(200);
      const scan = await waitFor(`the ${t.tool} scan of ${t.value} to end`, async () => {
        const { data } = await customer
          .from('scan_results')
          .select('status, error_message')
          .eq('id', started.body.scanId)
          .single<{ status: string; error_message: string | null }>();
        return data && !['queued', 'in_progress'].includes(data.status) ? data : null;
      });
      expect(scan.status).toBe('failed');
      expect(scan.error_message).toMatch(/not a public address/);
    }
    expect(hits).toEqual([]);
  });

  it('scans an allowed server without following its redirects or its API document to forbidden ones', async () => {
    const site = await addTarget('url', `http://${PUBLIC}:${PUBLIC_PORT}`);
    const api = await addTarget('api', `http://${PUBLIC}:${PUBLIC_PORT}/v1`);
    const host = await addTarget('host', PUBLIC);
    tokens.add(site.verification_token);
    tokens.add(api.verification_token);
    tokens.add(host.verification_token);
    for (const [t, tool] of [
      [site, 'webapp'],
      [api, 'api'],
      [host, 'infrastructure'],
    ] as const) {
      const verified = await scanner({ action: 'verify_target', toolType: tool, target: t.id });
      expect({ tool, status: verified.status, body: verified.body }).toMatchObject({
        tool,
        body: { verified: true },
      });
      const started = await scanner({
        action: 'start_scan',
        toolType: tool,
        target: t.id,
        ...(tool === 'infrastructure' ? { ports: `${PUBLIC_PORT},22,80,443` } : {}),
      });
      expect(started.status).toBe(200);
      const scan = await waitFor(`the ${tool} scan of the allowed server to end`, async () => {
        const { data } = await customer
          .from('scan_results')
          .select('status')
          .eq('id', started.body.scanId)
          .single<{ status: string }>();
        return data && !['queued', 'in_progress'].includes(data.status) ? data : null;
      });
      expect(scan.status).toBe('completed');
    }
    expect(hits).toEqual([]);
  });

  it(
    'renders a hostile page of an allowed server in Chromium without reaching a forbidden address',
    requires(chromium()),
    async () => {
      const app = await addTarget('url', `http://${PUBLIC}:${PUBLIC_PORT}/app/`);
      tokens.add(app.verification_token);
      const verified = await scanner({ action: 'verify_target', toolType: 'webapp', target: app.id });
      expect(verified.body).toMatchObject({ verified: true });
      const started = await scanner({ action: 'start_scan', toolType: 'webapp', target: app.id });
      expect(started.status).toBe(200);
      const scan = await waitFor('the browser-rendered scan to end', async () => {
        const { data } = await customer
          .from('scan_results')
          .select('status, analyzed_results')
          .eq('id', started.body.scanId)
          .single<{ status: string; analyzed_results: { crawl?: { engine: string; rendered: number } } }>();
        return data && !['queued', 'in_progress'].includes(data.status) ? data : null;
      });
      expect(scan.status).toBe('completed');
      expect(scan.analyzed_results.crawl).toMatchObject({ engine: 'chromium' });
      expect(scan.analyzed_results.crawl!.rendered).toBeGreaterThanOrEqual(1);
      // Let anything Chromium might still send on its own arrive before looking.
      await new Promise((r) => setTimeout(r, 1000));
      expect(hits).toEqual([]);
    },
  );
});
