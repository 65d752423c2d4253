import { UNLIMITED_RATE_LIMITS } from '../server/auth/settings.ts';
import { startStack } from '../server/stack.ts';
import { benchUser, timeLoop } from './lib/fixtures.ts';
import { inProcessCopy } from './lib/in-process-pglite.ts';
import { benchRestFidelity } from './rest-fidelity.ts';
import { percentile, type BenchRow } from './lib/report.ts';

/**
 * REST read and write latency (p50/p99) and requests per second, each against the same statement run on
 * PGlite directly in the same process (a copy of the stack's database on this thread: the baseline the
 * ratio target was set against; the stack's own engine runs on a thread of its own, and the same statement
 * through it is reported beside). Two ratios: the stack's REST layer alone (a built Request
 * handed to the app in-process: routing, JWT verification, the role transaction with RLS, SQL and JSON), which
 * is the overhead the target (≤ 1.5× the raw query) is about; and end to end over loopback HTTP with
 * fetch, as supabase-js calls it, which adds a transport floor (GET /health) the stack cannot go below.
 */
export async function benchRest(n = 1000): Promise<BenchRow[]> {
  const stack = await startStack({ auth: { rateLimits: UNLIMITED_RATE_LIMITS }, port: 0, dataDir: 'memory' });
  let closeLocal = async () => {};
  try {
    const { db } = stack.ctx;
    const user = await benchUser(stack);
    // The in-process baseline: a copy taken after the bench user exists (the write's foreign key).
    const local = await inProcessCopy(db);
    closeLocal = () => local.close();
    const role = (
      await db.query<{ id: string }>('select id from public.agent_roles order by price_monthly limit 1')
    ).rows[0];
    if (!role) {
      throw new Error('the seed has no agent_roles');
    }
    const headers = { apikey: stack.status.anon_key, authorization: `Bearer ${user.token}` };
    const readUrl = `${stack.url}/rest/v1/agent_roles?select=*&id=eq.${role.id}`;
    const restRead = async () => {
      const res = await fetch(readUrl, { headers });
      if (!res.ok) {
        throw new Error(`REST read failed: ${res.status} ${await res.text()}`);
      }
      return res.json();
    };
    // In process, each Request is built before the clock starts, as the HTTP server builds it before the
    // app sees it; the timed part is the app's work on it and reading the response body it produced.
    const readRequest = () => new Request(readUrl, { headers });
    const inStack = async (request: Request, status: number) => {
      const res = await stack.handle(request);
      if (res.status !== status) {
        throw new Error(`in-stack REST request failed: ${res.status} ${await res.text()}`);
      }
      await res.arrayBuffer();
    };
    const readSql = 'select * from public.agent_roles where id = $1';
    const rawRead = () => local.query(readSql, [role.id]);
    const threadRead = () => db.query(readSql, [role.id]);
    const restWrite = async (i: number) => {
      const res = await fetch(`${stack.url}/rest/v1/monitoring_metrics`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ metric_name: 'bench', value: i, metadata: { i } }),
      });
      if (res.status !== 201) {
        throw new Error(`REST write failed: ${res.status} ${await res.text()}`);
      }
      await res.arrayBuffer();
    };
    const writeRequest = (i: number) => {
      const body = JSON.stringify({ metric_name: 'bench', value: i, metadata: { i } });
      // Content-Length as fetch sends it over HTTP (a Request built in process has none of its own).
      return new Request(`${stack.url}/rest/v1/monitoring_metrics`, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      });
    };
    const timeInStack = (count: number, build: (i: number) => Request, status: number) => {
      const requests = Array.from({ length: count }, (_, i) => build(i));
      return timeLoop(count, (i) => inStack(requests[i]!, status));
    };
    const writeSql = `insert into public.monitoring_metrics (user_id, metric_name, value, metadata) values ($1, 'bench', $2, $3)`;
    const rawWrite = (i: number) => local.query(writeSql, [user.id, i, { i }]);
    const threadWrite = (i: number) => db.query(writeSql, [user.id, i, { i }]);
    // The cost of a call to the engine's thread itself: an empty query there and on this thread.
    const threadEmpty = () => db.exec('');
    const localEmpty = () => local.exec('');
    // What a REST read cannot go below: an HTTP round trip on loopback that touches no database, and the
    // same statement through the mechanism REST uses (a pipelined transaction, statement prepared once).
    const health = async () => (await fetch(`${stack.url}/health`)).arrayBuffer();
    const txRead = () =>
      db.transaction((tx) => tx.query('select * from public.agent_roles where id = $1', [role.id]), {
        endAfterFirstQuery: true,
      });
    // Warm up both paths (JIT, plan caches) before measuring.
    await timeLoop(50, restRead);
    await timeInStack(50, readRequest, 200);
    await timeLoop(50, rawRead);
    await timeLoop(50, threadRead);
    await timeLoop(50, threadEmpty);
    await timeLoop(50, localEmpty);
    await timeLoop(50, health);
    await timeLoop(50, txRead);
    const rr = await timeLoop(n, restRead);
    const sr = await timeInStack(n, readRequest, 200);
    const dr = await timeLoop(n, rawRead);
    const ttr = await timeLoop(n, threadRead);
    const hr = await timeLoop(n, health);
    const tr = await timeLoop(n, txRead);
    const rw = await timeLoop(n, restWrite);
    const sw = await timeInStack(n, writeRequest, 201);
    const dw = await timeLoop(n, rawWrite);
    const ttw = await timeLoop(n, threadWrite);
    const te = await timeLoop(n, threadEmpty);
    const le = await timeLoop(n, localEmpty);
    const floor = percentile(hr, 50);
    const rows: BenchRow[] = [];
    for (const [label, rest, inStack, raw, thread] of [
      ['read', rr, sr, dr, ttr],
      ['write', rw, sw, dw, ttw],
    ] as const) {
      const rawP50 = percentile(raw, 50);
      const threadP50 = percentile(thread, 50);
      const layer = percentile(inStack, 50) / rawP50;
      const endToEnd = percentile(rest, 50) / rawP50;
      const rps = 1000 / (rest.reduce((a, b) => a + b, 0) / rest.length);
      rows.push(
        { name: `REST ${label} p50`, value: percentile(rest, 50), unit: 'ms' },
        { name: `REST ${label} p99`, value: percentile(rest, 99), unit: 'ms' },
        { name: `raw PGlite ${label} p50 (same statement)`, value: rawP50, unit: 'ms' },
        {
          name: `raw PGlite ${label} p50 through the engine thread`,
          value: threadP50,
          unit: 'ms',
          note: 'the same statement through the stack’s database (its engine on a thread of its own)',
        },
        { name: `REST ${label} in the stack, no HTTP, p50`, value: percentile(inStack, 50), unit: 'ms' },
        {
          name: `REST ${label} layer / raw p50 ratio`,
          value: layer,
          unit: '×',
          target: '≤ 1.5',
          pass: layer <= 1.5,
          note: 'a Request built beforehand, handed to the stack in-process: routing, JWT, role transaction with RLS, SQL, response body',
        },
        {
          name: `REST ${label} layer / raw through the engine thread p50 ratio`,
          value: percentile(inStack, 50) / threadP50,
          unit: '×',
          note: 'for information: both sides pay the call to the engine’s thread',
        },
        {
          name: `REST ${label} end to end over HTTP / raw p50 ratio`,
          value: endToEnd,
          unit: '×',
          note: `for information: loopback HTTP with fetch, whose transport alone (GET /health) is ${(floor / rawP50).toFixed(1)}× the raw ${label}, so the ≤ 1.5 target applies to the layer (row above)`,
        },
        { name: `REST ${label} requests per second (sequential)`, value: rps, unit: 'req/s' },
      );
    }
    rows.push(...(await aal2PolicyCost(stack, headers, user.id)));
    rows.push(...(await benchRestFidelity(stack)));
    rows.push(
      { name: 'HTTP floor: GET /health p50 (no database)', value: floor, unit: 'ms' },
      { name: 'empty query through the engine thread p50', value: percentile(te, 50), unit: 'ms' },
      {
        name: 'empty query on PGlite in process p50',
        value: percentile(le, 50),
        unit: 'ms',
        note: 'the difference with the row above is what a call to the engine’s thread costs',
      },
      {
        name: 'raw read in a pipelined transaction p50',
        value: percentile(tr, 50),
        unit: 'ms',
        note: 'the statement (prepared once) in one call to the engine’s thread, an implicit transaction, as REST reads run it',
      },
    );
    return rows;
  } finally {
    await closeLocal();
    await stack.close();
  }
}

/**
 * What the restrictive aal2 policy (docs/product.md §15: no tenant row for a password-only session of a user with a
 * second factor) costs a REST request: a tenant read and the write above, in the stack, with the policy and
 * with it dropped, alternating in rounds so that drift in the machine's speed hits both alike. The write
 * ratio above includes this cost; its target was set before the policy existed.
 */
async function aal2PolicyCost(
  stack: Awaited<ReturnType<typeof startStack>>,
  headers: Record<string, string>,
  userId: string,
): Promise<BenchRow[]> {
  const { db } = stack.ctx;
  const tables = ['user_settings', 'monitoring_metrics'];
  const policy = (t: string) => `"${t}: aal2 once a second factor exists"`;
  const definitions = await db.query<{ table: string; qual: string; check: string }>(
    `select c.relname as table, pg_get_expr(p.polqual, p.polrelid) as qual,
            pg_get_expr(p.polwithcheck, p.polrelid) as check
       from pg_policy p join pg_class c on c.oid = p.polrelid
      where c.relname = any($1) and p.polname like '%: aal2 once a second factor exists'`,
    [tables],
  );
  if (definitions.rows.length !== tables.length) {
    throw new Error('the aal2 policies are missing: is migration 20261124000000 applied?');
  }
  const drop = () => db.exec(tables.map((t) => `drop policy ${policy(t)} on public.${t};`).join('\n'));
  const restore = () =>
    db.exec(
      definitions.rows
        .map(
          (
            d,
          ) => `create policy ${policy(d.table)} on public.${d.table} as restrictive for all to authenticated
                  using (${d.qual}) with check (${d.check});`,
        )
        .join('\n'),
    );
  const read = () => new Request(`${stack.url}/rest/v1/user_settings?select=*`, { headers });
  const write = (i: number) => {
    const body = JSON.stringify({ metric_name: 'bench-aal', value: i, metadata: { i } });
    return new Request(`${stack.url}/rest/v1/monitoring_metrics`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    });
  };
  const p50 = async (build: (i: number) => Request, n: number) => {
    const requests = Array.from({ length: n }, (_, i) => build(i));
    const times = await timeLoop(n, async (i) => {
      const res = await stack.handle(requests[i]!);
      await res.arrayBuffer();
    });
    return percentile(times, 50);
  };
  const samples = {
    with: { read: [] as number[], write: [] as number[] },
    without: { read: [] as number[], write: [] as number[] },
  };
  for (let round = 0; round < 6; round++) {
    for (const mode of ['with', 'without'] as const) {
      if (mode === 'without') {
        await drop();
      }
      // Warm up after the DDL: dropping or creating a policy invalidates the prepared plans.
      await p50(read, 100);
      await p50(write, 100);
      samples[mode].read.push(await p50(read, 300));
      samples[mode].write.push(await p50(write, 300));
      if (mode === 'without') {
        await restore();
      }
    }
  }
  await db.query(`delete from public.monitoring_metrics where user_id = $1 and metric_name = 'bench-aal'`, [
    userId,
  ]);
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const rows: BenchRow[] = [];
  for (const op of ['read', 'write'] as const) {
    const withPolicy = median(samples.with[op]);
    const without = median(samples.without[op]);
    rows.push(
      { name: `REST tenant ${op} in the stack p50, aal2 policy in place`, value: withPolicy, unit: 'ms' },
      { name: `REST tenant ${op} in the stack p50, aal2 policy dropped`, value: without, unit: 'ms' },
      {
        name: `aal2 policy cost per tenant ${op}`,
        value: withPolicy - without,
        unit: 'ms',
        note: 'medians of 6 alternating rounds of 300 requests; user_settings read, monitoring_metrics insert',
      },
    );
  }
  return rows;
}
