/**
 * REST overhead probe: p50 of GET /rest/v1/<table>?id=eq.N (over HTTP, as a signed-in user under RLS)
 * against the same SELECT through ctx.db.query. Run: npx tsx server/rest/overhead-bench.ts
 */
import { startStack } from '../stack.ts';
import { reloadSchemaCache } from './schema-cache.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const N = Number(process.env.N ?? 2000);

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const stack = await startStack({ port: 0, dataDir: 'memory', databaseUrl: undefined, smtpUrl: undefined });
  const { db } = stack.ctx;
  await db.exec(`create table public.bench_items (id bigint primary key, user_id uuid not null, name text, created_at timestamptz default now(), n numeric);
    alter table public.bench_items enable row level security;
    create policy own on public.bench_items for select to authenticated using (user_id = auth.uid());
    insert into public.bench_items (id, user_id, name, n) select g, '${USER}', 'item ' || g, g / 3.0 from generate_series(1, 1000) g;`);
  await reloadSchemaCache(db);
  const token = await stack.ctx.keys.sign({ sub: USER, role: 'authenticated', aud: 'authenticated' }, 3600);
  const headers = {
    apikey: stack.status.anon_key,
    authorization: `Bearer ${token}`,
    'accept-profile': 'public',
  };
  const rawSql = 'select * from public.bench_items where id = $1';
  const rest: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < N; i++) {
    const id = (i % 1000) + 1;
    let t = performance.now();
    await db.query(rawSql, [id]);
    raw.push(performance.now() - t);
    t = performance.now();
    const res = await fetch(`${stack.url}/rest/v1/bench_items?select=*&id=eq.${id}`, { headers });
    await res.text();
    rest.push(performance.now() - t);
  }
  const [r, q] = [p50(rest.slice(N / 4)), p50(raw.slice(N / 4))];
  console.log(
    JSON.stringify({ rest_p50_ms: +r.toFixed(3), raw_p50_ms: +q.toFixed(3), ratio: +(r / q).toFixed(2) }),
  );
  await stack.close();
}

await main();
