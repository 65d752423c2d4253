// `npm start` as a process supervisor and a user see it: SIGTERM to npm (as `docker stop` sends it) or
// Ctrl-C stops every process it started, a scan in flight with its process included, and keeps every
// write the stack acknowledged; a taken port is one line naming it and VIGIL_PORT. The real command (npm,
// its shell, the built product) on a data dir of its own; never the machine's default port.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMemory, processTree } from '../../../bench/lib/processes.ts';
import {
  freePort,
  npmStart,
  repoRoot,
  stopProduct,
  type StartedProduct,
} from '../../../bench/lib/npm-start.ts';
import { findChromium } from '../../../agents/scanners/webapp/browser/chromium.ts';
import { chromium as chromiumNeeded } from '../../fixtures/debian-packages.ts';
import { requires } from '../../helpers/requirements.ts';

const CHROMIUM = findChromium(process.env.CHROMIUM_PATH) ?? '/usr/bin/chromium';

let work: string;
let env: Record<string, string>;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'vigil-lifecycle-'));
  // A placeholder web app: these tests are about processes, not the web build.
  await mkdir(path.join(work, 'web'));
  await writeFile(path.join(work, 'web/index.html'), '<!doctype html><title>Vigil</title>');
  env = { VIGIL_DATA_DIR: path.join(work, 'data'), VIGIL_WEB_DIR: path.join(work, 'web'), DATABASE_URL: '' };
});
afterAll(() => rm(work, { recursive: true, force: true }));

const service = async (product: StartedProduct) =>
  ((await (await fetch(`${product.url}/_stack/status`)).json()) as { service_role_key: string })
    .service_role_key;

async function rest(product: StartedProduct, key: string, route: string, body?: unknown) {
  const res = await fetch(`${product.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      apikey: key,
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${route}: ${res.status} ${text}`);
  }
  return JSON.parse(text) as unknown;
}

const portOpen = (url: string) =>
  fetch(`${url}/health`).then(
    () => true,
    () => false,
  );

/** The first time `check` holds, polling every 50 ms; false after `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('npm start', () => {
  it('stops every process on SIGTERM to npm, keeping the writes it acknowledged', async () => {
    const first = await npmStart(env);
    const key = await service(first);
    const email = `kept-${Date.now()}@example.com`;
    const created = (await rest(first, key, '/auth/v1/admin/users', { email, email_confirm: true })) as {
      id: string;
    };
    const tree = await processTree(first.npm.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(2);
    // The stop has a 4.5 s deadline; the bound here leaves a loaded machine a margin.
    const stopped = await stopProduct(first, 'SIGTERM', 20_000);
    expect(stopped, first.output()).not.toBeNull();
    expect(await portOpen(first.url)).toBe(false);
    expect(first.output()).toMatch(/Stopping Vigil/);

    const second = await npmStart(env);
    try {
      const users = (await rest(second, await service(second), `/auth/v1/admin/users/${created.id}`)) as {
        email: string;
      };
      expect(users.email).toBe(email);
    } finally {
      await stopProduct(second, 'SIGTERM', 20_000);
    }
  }, 180_000);

  it('stops on Ctrl-C (SIGINT to its process group)', async () => {
    const port = String(await freePort());
    const product = await npmStart({ ...env, VIGIL_PORT: port });
    const tree = await processTree(product.npm.pid!);
    // npm start runs in the test's process group: signal its members, as a terminal's Ctrl-C does.
    for (const pid of tree) {
      process.kill(pid, 'SIGINT');
    }
    const gone = await eventually(
      async () => (await Promise.all(tree.map(processMemory))).every((p) => p === null),
      20_000,
    );
    expect(gone, product.output()).toBe(true);
    expect(product.output()).toMatch(/Stopping Vigil \(SIGINT\)/);
  }, 120_000);

  it('says in one line that the port is taken, naming it and VIGIL_PORT', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const npm = spawn('npm', ['start'], {
        cwd: repoRoot,
        env: { ...process.env, CI: '1', ...env, VIGIL_PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      npm.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => npm.once('exit', resolve));
      expect(code).toBe(1);
      const lines = stderr.split('\n').filter((l) => /\bport\b|EADDRINUSE|^\s+at /i.test(l));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`port ${port} .*VIGIL_PORT=\\d+ npm start`))]);
    } finally {
      taken.close();
    }
  }, 120_000);
});

/** A customer with agents, a verified web target at `url` and a webapp scan of it queued, over the API. */
async function queueScan(product: StartedProduct, url: string): Promise<void> {
  const key = await service(product);
  const user = (await rest(product, key, '/auth/v1/admin/users', {
    email: `scanner-${crypto.randomUUID().slice(0, 8)}@example.com`,
    email_confirm: true,
  })) as { id: string };
  const roles = (await rest(product, key, '/rest/v1/agent_roles?select=id')) as { id: string }[];
  // Agents, as the payment webhook gives them (the queue refuses scans without one).
  const applied = await rest(product, key, '/rest/v1/rpc/billing_apply_event', {
    p_event_id: `evt_lifecycle_${crypto.randomUUID()}`,
    p_event_type: 'customer.subscription.updated',
    p_event_created: new Date().toISOString(),
    p_state: {
      user_id: user.id,
      role_ids: roles.map((r) => r.id),
      provider_subscription_id: `sub_${user.id}`,
      provider_customer_id: `cus_${user.id}`,
      status: 'trialing',
      trial_ends_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      current_period_ends_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      cancel_at_period_end: false,
      monthly_amount: 0,
    },
  });
  expect(applied).toBe('applied');
  const [scanTarget] = (await rest(product, key, '/rest/v1/scan_targets', {
    user_id: user.id,
    kind: 'url',
    value: url,
    verified_at: new Date().toISOString(),
    verification_method: 'http',
    rate_limit: 100,
  })) as { id: string }[];
  await rest(product, key, '/rest/v1/security_tool_configurations', {
    user_id: user.id,
    tool_type: 'webapp',
    enabled: true,
    connection_status: 'connected',
    settings: {},
  });
  await rest(product, key, '/rest/v1/rpc/enqueue_scan', {
    p_user: user.id,
    p_tool: 'webapp',
    p_target_id: scanTarget!.id,
    p_scanner: 'webapp',
  });
}

/** The first process of npm start's tree whose command line matches, once there is one (null after `ms`). */
async function processOf(product: StartedProduct, command: RegExp, ms: number) {
  let found: Awaited<ReturnType<typeof processMemory>> = null;
  await eventually(async () => {
    const all = await Promise.all((await processTree(product.npm.pid!)).map(processMemory));
    found = all.find((p) => p !== null && command.test(p.command)) ?? null;
    return found !== null;
  }, ms);
  return found;
}

describe('npm start with a scan in flight', () => {
  let target: http.Server;
  let targetUrl: string;
  const hung = new Set<http.ServerResponse>();
  beforeAll(async () => {
    // A target whose page runs a script waiting on an API that never answers, and whose every other path
    // never answers either: the scan, and its browser, stay in flight until they are stopped.
    target = http.createServer((req, res) => {
      if (req.url === '/') {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><html><body><h1>Shop</h1><script>fetch("/api/hang")</script></body></html>');
        return;
      }
      hung.add(res);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    hung.forEach((res) => res.destroy());
    await new Promise((resolve) => target.close(resolve));
  });

  it('ends the scan process too on SIGTERM', async () => {
    const product = await npmStart({ ...env, VIGIL_SCAN_BROWSER: 'off' });
    try {
      await queueScan(product, targetUrl);
      // The worker in npm start claims the job and starts the scan's own process.
      expect(await processOf(product, /scan-child/, 60_000), product.output()).not.toBeNull();
      expect(await eventually(() => Promise.resolve(hung.size > 0), 30_000)).toBe(true);
      const tree = await processTree(product.npm.pid!);
      const stopped = await stopProduct(product, 'SIGTERM', 20_000);
      expect(stopped, product.output()).not.toBeNull();
      expect((await Promise.all(tree.map(processMemory))).filter(Boolean)).toEqual([]);
    } finally {
      await stopProduct(product, 'SIGKILL', 5000);
    }
  }, 180_000);

  it(
    "ends the scan's Chromium too on SIGTERM",
    { ...requires(chromiumNeeded()), timeout: 240_000 },
    async () => {
      const product = await npmStart({ ...env, CHROMIUM_PATH: CHROMIUM });
      try {
        await queueScan(product, targetUrl);
        // The rendered crawl opens the page in Chromium, under the scan's process.
        expect(await processOf(product, /chrom/i, 90_000), product.output()).not.toBeNull();
        const tree = await processTree(product.npm.pid!);
        expect(tree.length).toBeGreaterThan(4);
        const stopped = await stopProduct(product, 'SIGTERM', 20_000);
        expect(stopped, product.output()).not.toBeNull();
        expect((await Promise.all(tree.map(processMemory))).filter(Boolean)).toEqual([]);
      } finally {
        await stopProduct(product, 'SIGKILL', 5000);
      }
    },
  );
});
