// Issue 14 §0: one anonymous request with a pathological `match` filter (groups and back-references, which
// send Postgres's regex engine into exponential backtracking) ran 55 s and stopped the stack. Each API
// role now has a statement time limit, as Supabase sets them (anon 3 s, authenticated 8 s), applied to
// every request made as the role on PGlite (its watchdog raises Postgres's interrupt flags) and on
// PostgreSQL (the request's statement_timeout); past it the statement is cancelled with PostgREST's error
// and the database goes on serving. On PGlite and, through scripts/test-postgres.sh, PostgreSQL 15.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadRoleTimeouts, statementTimeoutFor } from '../../server/db/role-timeouts.ts';
import type { RunningStack } from '../../server/stack.ts';
import { client, startTestStack } from '../helpers/stack.ts';
import { signedInUser, type TestUser } from '../helpers/users.ts';

let stack: RunningStack;
let user: TestUser;

// Four groups with back-references: about 25 s over the seven catalogue rows without a limit.
const PATHOLOGICAL = '(.*)(.*)(.*)(.*)\\1\\2\\3\\4';
const LIMIT_MS = 400;

async function setRoleTimeout(role: string, value: string): Promise<void> {
  await stack.ctx.db.exec(`alter role ${role} set statement_timeout = '${value}'`);
  await reloadRoleTimeouts(stack.ctx.db);
}

beforeAll(async () => {
  stack = await startTestStack({ databaseUrl: process.env.VIGIL_TEST_DATABASE_URL });
  user = await signedInUser(stack, `timeouts-${Date.now()}@example.com`);
  await setRoleTimeout('anon', `${LIMIT_MS}ms`);
  await setRoleTimeout('authenticated', `${LIMIT_MS}ms`);
});
afterAll(async () => {
  // Roles are shared by every database of a PostgreSQL cluster: leave Supabase's limits behind.
  await setRoleTimeout('anon', '3s').catch(() => undefined);
  await setRoleTimeout('authenticated', '8s').catch(() => undefined);
  await stack?.close();
});

const restGet = (path: string, token?: string) =>
  fetch(`${stack.url}/rest/v1/${path}`, {
    headers: { apikey: stack.status.anon_key, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

describe('statement time limits per role', () => {
  it('reads the limits Supabase sets on its roles', async () => {
    // The platform bootstrap's own values (the test lowered them above; a fresh read shows the change).
    expect(await statementTimeoutFor(stack.ctx.db, 'anon')).toBe(LIMIT_MS);
    expect(await statementTimeoutFor(stack.ctx.db, 'service_role')).toBe(0);
    const { rows } = await stack.ctx.db.query<{ config: string[] }>(
      `select array_agg(c order by c) as config from pg_db_role_setting d join pg_roles r on r.oid = d.setrole,
              unnest(d.setconfig) c where r.rolname in ('anon', 'authenticated') and c like 'statement_timeout=%'`,
    );
    expect(rows[0]!.config).toEqual([`statement_timeout=${LIMIT_MS}ms`, `statement_timeout=${LIMIT_MS}ms`]);
  });

  it('cuts off a pathological match filter with PostgREST’s error, anonymous or signed in', async () => {
    for (const token of [undefined, user.accessToken]) {
      const started = performance.now();
      const res = await restGet(
        `agent_roles?select=id&description=match.${encodeURIComponent(PATHOLOGICAL)}`,
        token,
      );
      const took = performance.now() - started;
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        code: '57014',
        details: null,
        hint: null,
        message: 'canceling statement due to statement timeout',
      });
      // Cut off near its limit, not after the ~25 s it would run (a generous bound for a loaded machine).
      expect(took).toBeLessThan(LIMIT_MS + 4000);
    }
  });

  it('leaves the database serving afterwards, with what was committed before', async () => {
    const res = await restGet('agent_roles?select=name&order=display_order.asc&limit=1');
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(1);
    const profile = await user.supabase.from('profiles').select('id').single();
    expect(profile.data?.id).toBe(user.id);
    // imatch too, and a statement that finishes in time is not touched.
    const quick = await restGet(`agent_roles?select=id&description=imatch.${encodeURIComponent('^watches')}`);
    expect(quick.status).toBe(200);
    const slow = await restGet(
      `agent_roles?select=id&description=imatch.${encodeURIComponent(PATHOLOGICAL)}`,
    );
    expect(slow.status).toBe(500);
  });

  it('lets the service role run without a limit, and a raised limit take effect on reload', async () => {
    const service = client(stack, 'service_role');
    const { data, error } = await service.from('agent_roles').select('id').limit(1);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    await setRoleTimeout('anon', '1min');
    expect(await statementTimeoutFor(stack.ctx.db, 'anon')).toBe(60_000);
    await setRoleTimeout('anon', `${LIMIT_MS}ms`);
  });

  const onPostgres = process.env.VIGIL_TEST_DATABASE_URL !== undefined;

  /** Latency of `probe` sampled while `busy` runs (at least three samples). */
  async function whileBusy(busy: Promise<unknown>, probe: () => Promise<Response>): Promise<number[]> {
    let done = false;
    void busy.finally(() => (done = true));
    const samples: number[] = [];
    while (!done || samples.length < 3) {
      const started = performance.now();
      const res = await probe();
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      samples.push(performance.now() - started);
      if (done && samples.length >= 3) {
        break;
      }
    }
    return samples;
  }

  it.runIf(onPostgres)(
    'keeps /health and a signed-in read fast while ten pathological requests run (PostgreSQL)',
    async () => {
      await setRoleTimeout('anon', '2s');
      const attack = Promise.all(
        Array.from({ length: 10 }, () =>
          restGet(`agent_roles?select=id&description=match.${encodeURIComponent(PATHOLOGICAL)}`),
        ),
      );
      // Give the attack time to take its connections.
      await new Promise((r) => setTimeout(r, 200));
      const health = await whileBusy(attack, () => fetch(`${stack.url}/health`));
      const reads = await whileBusy(attack, () => restGet('profiles?select=id', user.accessToken));
      const answers = await attack;
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(500));
      // The attack's requests may hold at most four of the pool's ten connections.
      expect(Math.max(...health)).toBeLessThan(100);
      expect(Math.max(...reads)).toBeLessThan(100);
      await setRoleTimeout('anon', `${LIMIT_MS}ms`);
    },
  );

  it.runIf(!onPostgres)(
    'on PGlite, holds the stack no longer than the limit: /health answers once the statement is cut off',
    async () => {
      const attack = restGet(`agent_roles?select=id&description=match.${encodeURIComponent(PATHOLOGICAL)}`);
      await new Promise((r) => setTimeout(r, 50));
      const started = performance.now();
      const res = await fetch(`${stack.url}/health`);
      expect(res.status).toBe(200);
      // PGlite is one backend on the stack's thread: a statement holds it until cut off at its limit.
      expect(performance.now() - started).toBeLessThan(LIMIT_MS + 4000);
      expect((await attack).status).toBe(500);
    },
  );
});
