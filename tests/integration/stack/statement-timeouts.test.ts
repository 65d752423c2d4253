// docs/product.md §17.5: one anonymous request with a pathological `match` filter (groups and back-references, which
// send Postgres's regex engine into exponential backtracking) ran 55 s and stopped the stack. Each API
// role now has a statement time limit, as Supabase sets them (anon 3 s, authenticated 8 s), applied to
// every request made as the role on PGlite (the stack raises Postgres's interrupt flags) and on
// PostgreSQL (the request's statement_timeout); past it the statement is cancelled with PostgREST's error
// and the database goes on serving. On PGlite and, through scripts/test-postgres.sh, PostgreSQL 15.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { reloadRoleTimeouts, statementTimeoutFor } from '../../../server/db/role-timeouts.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { scaler } from '../../helpers/budget.ts';
import { inStage, requires } from '../../helpers/requirements.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';

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
    const within = scaler();
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
      // Cut off near its limit, not after the ~25 s it would run (the cancel's own time, at this machine's
      // measured speed).
      expect(took).toBeLessThan(LIMIT_MS + within(1500));
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

  /**
   * Each probe's latency, sampled in turn while `busy` runs; only answers given before it settled count.
   * All of them every 10 ms, as a polling client would: this test's client shares the stack's thread, and
   * probing back to back would load that thread itself rather than measure it. Callers run each probe once
   * before the attack, so that its connection and code paths are warm and the samples measure the stack.
   */
  async function sampleWhile<K extends string>(
    busy: Promise<unknown>,
    probes: Record<K, () => Promise<void>>,
  ): Promise<Record<K, number[]>> {
    let running = true;
    void busy.finally(() => (running = false));
    const entries = Object.entries(probes) as [K, () => Promise<void>][];
    const samples = Object.fromEntries(entries.map(([name]) => [name, []])) as unknown as Record<K, number[]>;
    while (running) {
      for (const [name, probe] of entries) {
        const t = performance.now();
        await probe();
        if (running) {
          samples[name].push(performance.now() - t);
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return samples;
  }

  const expectOk = async (res: Promise<Response>) => {
    const answer = await res;
    await answer.arrayBuffer();
    expect(answer.status).toBe(200);
  };

  it(
    'keeps /health and a signed-in read fast while ten pathological requests run (PostgreSQL)',
    requires(onPostgres ? null : inStage('postgres', 'PostgreSQL cancels statements its own way')),
    async () => {
      await setRoleTimeout('anon', '2s');
      const within = scaler();
      const probes = {
        health: () => expectOk(fetch(`${stack.url}/health`)),
        read: () => expectOk(restGet('profiles?select=id', user.accessToken)),
      };
      for (const probe of Object.values(probes)) {
        await probe();
      }
      const started = performance.now();
      const attack = Promise.all(
        Array.from({ length: 10 }, () =>
          restGet(`agent_roles?select=id&description=match.${encodeURIComponent(PATHOLOGICAL)}`),
        ),
      );
      // Give the attack time to take its connections.
      await new Promise((r) => setTimeout(r, 200));
      const samples = await sampleWhile(attack, probes);
      const answers = await attack;
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(500));
      // Ten 2 s statements on at most four connections: three waves, so every sample above came while some ran.
      expect(performance.now() - started).toBeGreaterThanOrEqual(4000);
      // The attack's requests may hold at most four of the pool's ten connections: a probe never waits for
      // one. Waiting would take what is left of a 2 s statement, a second on average: no probe waits a whole
      // statement, and the typical one answers in the time a request takes on this machine now.
      for (const [name, times] of Object.entries(samples)) {
        expect(times.length, name).toBeGreaterThanOrEqual(20);
        expect(Math.max(...times), name).toBeLessThan(2000);
        expect(times.sort((a, b) => a - b)[Math.floor(times.length / 2)], name).toBeLessThan(within(100));
      }
      await setRoleTimeout('anon', `${LIMIT_MS}ms`);
    },
  );

  /** A realtime socket whose heartbeat round trip can be timed. */
  async function heartbeatSocket() {
    const ws = new WebSocket(
      `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.status.anon_key}&vsn=2.0.0`,
    );
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    let ref = 0;
    const heartbeat = () =>
      new Promise<void>((resolve) => {
        const mine = String(++ref);
        const onMessage = (data: Buffer) => {
          const frame = JSON.parse(data.toString('utf8')) as unknown[];
          if (frame[1] === mine && frame[3] === 'phx_reply') {
            ws.off('message', onMessage);
            resolve();
          }
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify([null, mine, 'phoenix', 'heartbeat', {}]));
      });
    return { heartbeat, close: () => ws.close() };
  }

  it(
    'on PGlite, keeps /health, /config.json and realtime heartbeats answering while the statement runs; a REST read waits for its cancel',
    requires(onPostgres ? inStage('vitest', 'PGlite runs statements on its engine thread') : null),
    async () => {
      // Long enough for many probes while the engine's thread is busy with the regex.
      const limit = 1500;
      await setRoleTimeout('anon', `${limit}ms`);
      const socket = await heartbeatSocket();
      try {
        const probes = {
          health: () => expectOk(fetch(`${stack.url}/health`)),
          config: () => expectOk(fetch(`${stack.url}/config.json`)),
          heartbeat: socket.heartbeat,
        };
        for (const probe of Object.values(probes)) {
          await probe();
        }
        const started = performance.now();
        const attack = restGet(
          `agent_roles?select=id&description=match.${encodeURIComponent(PATHOLOGICAL)}`,
        ).then(async (res) => ({
          status: res.status,
          body: await res.json(),
          at: performance.now(),
        }));
        // Let the statement reach the engine; a signed-in read sent then queues behind it (one backend).
        await new Promise((r) => setTimeout(r, 100));
        const read = restGet('agent_roles?select=name&limit=1', user.accessToken).then(async (res) => ({
          status: res.status,
          rows: (await res.json()) as unknown[],
          at: performance.now(),
        }));
        const samples = await sampleWhile(attack, probes);
        const answer = await attack;
        expect(answer.status).toBe(500);
        expect(answer.body).toEqual({
          code: '57014',
          details: null,
          hint: null,
          message: 'canceling statement due to statement timeout',
        });
        // It ran to its limit, so every sample above was taken while the engine was busy with it. Had the
        // statement held the stack's own thread, no probe could have answered before it ended: counting the
        // answers proves the point whatever the machine's load, and none may have waited a third of it.
        expect(answer.at - started).toBeGreaterThanOrEqual(limit);
        for (const [name, times] of Object.entries(samples)) {
          expect(times.length, name).toBeGreaterThanOrEqual(5);
          expect(Math.max(...times), name).toBeLessThan(limit / 3);
        }
        // The read waited for the cancel, then ran at once (not after another statement's worth of time):
        // PGlite cannot run it beside the statement.
        const done = await read;
        expect(done.status).toBe(200);
        expect(done.rows).toHaveLength(1);
        expect(done.at - started).toBeGreaterThanOrEqual(limit);
        expect(done.at - answer.at).toBeLessThan(limit / 2);
        // And the database serves afterwards.
        const after = await restGet('agent_roles?select=id&limit=1');
        expect(after.status).toBe(200);
      } finally {
        socket.close();
        await setRoleTimeout('anon', `${LIMIT_MS}ms`);
      }
    },
  );
});
