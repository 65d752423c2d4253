// Shared by the queue, worker, targets, scanner-function and pipeline integration tests: signed-in
// customers, targets, and a tiny target web server whose weaknesses a test switches on and off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { createServiceClient } from '../../agents/queue/client.ts';
import { type WorkerOptions, Worker } from '../../agents/worker/worker.ts';
import type { RunningStack } from '../../server/stack.ts';
import type { AgentRoleType } from '../../shared/constants.ts';
import type { Database } from '../../shared/database.types.ts';
import { activateAgents, SCANNING_AGENTS } from './agents.ts';
import { client } from './stack.ts';

export interface Customer {
  id: string;
  email: string;
  token: string;
  supabase: SupabaseClient<Database>;
}

/**
 * A confirmed user signed in through /auth/v1 (a real session), with a supabase-js client acting as them.
 * Like a customer who scans, they have trialing agents covering every scanner (Penetration Tester and
 * Cybersecurity Analyst) unless `agents` says otherwise (`[]`: no agent at all).
 */
export async function customer(
  stack: RunningStack,
  email = `c-${crypto.randomUUID().slice(0, 8)}@example.com`,
  agents: readonly AgentRoleType[] = SCANNING_AGENTS,
): Promise<Customer> {
  const password = `pw-${crypto.randomUUID()}`;
  const admin = client(stack, 'service_role');
  const { data: created, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error) {
    throw error;
  }
  const supabase = createClient<Database>(stack.url, stack.status.anon_key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  const { data, error: signInError } = await supabase.auth.signInWithPassword({ email, password });
  if (signInError) {
    throw signInError;
  }
  if (agents.length) {
    await activateAgents(stack.ctx.db, created.user.id, agents);
  }
  return { id: created.user.id, email, token: data.session.access_token, supabase };
}

/** A scan target row, verified unless told otherwise (written with the service role, as the verifier does). */
export async function target(
  stack: RunningStack,
  userId: string,
  value: string,
  opts: { kind?: 'url' | 'host' | 'api'; verified?: boolean; rateLimit?: number } = {},
) {
  // The targets are tiny local servers: at the product's default of 10 requests per second a full web scan
  // of one (about 150 requests with the file, discovery and injection checks) would take 15 s. Pacing has
  // tests of its own (worker, rate-limit suite), which set their own limit.
  const { rows } = await stack.ctx.db.query<{ id: string; verification_token: string }>(
    `insert into public.scan_targets (user_id, kind, value, verified_at, verification_method, rate_limit)
     values ($1, $2, $3, case when $4 then now() end, case when $4 then 'http' end, $5) returning id, verification_token`,
    [userId, opts.kind ?? 'url', value, opts.verified ?? true, opts.rateLimit ?? 100],
  );
  return rows[0]!;
}

export async function initialised(
  stack: RunningStack,
  userId: string,
  tool: string,
  settings: Record<string, unknown> = {},
) {
  await stack.ctx.db.query(
    `insert into public.security_tool_configurations (user_id, tool_type, enabled, connection_status, settings)
     values ($1, $2, true, 'connected', $3)`,
    [userId, tool, JSON.stringify(settings)],
  );
}

export interface TargetServer {
  url: string;
  port: number;
  /** Served at /.well-known/vigil-verification.txt when set. */
  token: string | null;
  /** Exposes /.git/HEAD (high) and /.env (critical) while true. */
  vulnerable: boolean;
  /** Delay of every answer, to keep a scan running. */
  delayMs: number;
  requests: number;
  /** Date.now() of the last request received. */
  lastRequestAt: number;
  /** The most requests received and not yet answered at once: how many a scan keeps under way. */
  mostPending: number;
  close(): Promise<void>;
}

export async function targetServer(): Promise<TargetServer> {
  const state = {
    token: null as string | null,
    vulnerable: true,
    delayMs: 0,
    requests: 0,
    lastRequestAt: 0,
    mostPending: 0,
  };
  let pending = 0;
  const server = http.createServer((req, res) => {
    state.requests++;
    state.lastRequestAt = Date.now();
    pending++;
    state.mostPending = Math.max(state.mostPending, pending);
    res.once('close', () => pending--);
    const answer = () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/.well-known/vigil-verification.txt' && state.token) {
        res.end(`${state.token}\n`);
      } else if (state.vulnerable && path === '/.git/HEAD') {
        res.end('ref: refs/heads/main\n');
      } else if (state.vulnerable && path === '/.env') {
        res.end('APP_ENV=production\nDB_PASSWORD=hunter2\n');
      } else if (path === '/') {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>');
      } else {
        res.statusCode = 404;
        res.end('not found');
      }
    };
    if (state.delayMs) {
      setTimeout(answer, state.delayMs);
    } else {
      answer();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const running: TargetServer = Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return running;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Two workers (w1, w2) sharing the stack's queue with the given handlers, run until every one of `jobIds`
 * has succeeded, then stopped.
 */
export async function runTwoWorkersUntilDone(
  stack: RunningStack,
  jobIds: readonly string[],
  options: Pick<WorkerOptions, 'handlers' | 'concurrency'>,
): Promise<void> {
  const workers = ['w1', 'w2'].map(
    (id) =>
      new Worker({
        db: createServiceClient(stack.url, stack.status.service_role_key),
        mode: 'local',
        id,
        pollMs: 50,
        log: () => {},
        ...options,
      }),
  );
  workers.forEach((w) => w.start());
  await waitFor('all jobs done', async () => {
    const { rows } = await stack.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from public.jobs where id = any($1) and status = 'succeeded'`,
      [jobIds],
    );
    return rows[0]!.n === jobIds.length;
  });
  await Promise.all(workers.map((w) => w.stop()));
}
