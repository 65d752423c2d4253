import { readFileSync } from 'node:fs';
import path from 'node:path';
import { reloadSchemaCache } from '../server/rest/schema-cache.ts';
import type { RunningStack } from '../server/stack.ts';
import { timeLoop } from './lib/fixtures.ts';
import { percentile, type BenchRow } from './lib/report.ts';

/**
 * The PostgREST features of docs/reference/rest.md §2 and §7 beside raw SQL doing the same work, in the stack without HTTP (as the REST
 * layer ratio is measured): an aggregate with its GROUP BY, an embedded computed relationship, a table
 * embedded from a view (its keys followed back to the table's), and a set-returning function called with
 * count=exact. The schema is the REST fidelity suites' own.
 */
const PATHS = [
  {
    label: 'aggregate (sum grouped by a column)',
    url: 'messages?select=channel_id,likes.sum()',
    prefer: null,
    raw: 'select channel_id, sum(likes) from public.messages group by 1',
  },
  {
    label: 'embedded computed relationship',
    url: 'channels?select=slug,latest_message(id,message)',
    prefer: null,
    raw: 'select c.slug, (select row_to_json(m) from public.latest_message(c) m) from public.channels c',
  },
  {
    label: 'embedding through a view',
    url: 'channel_feed?select=id,users(username)',
    prefer: null,
    raw: 'select f.id, (select row_to_json(u) from (select username from public.users u where u.id = f.user_id) u) from public.channel_feed f',
  },
  {
    label: 'RPC with count=exact',
    url: 'rpc/search_messages?term=e',
    prefer: 'count=exact',
    raw: "select m.*, count(*) over () from public.search_messages('e') m",
  },
] as const;

export async function benchRestFidelity(stack: RunningStack, n = 500): Promise<BenchRow[]> {
  const { db } = stack.ctx;
  await db.exec(
    readFileSync(path.resolve(import.meta.dirname, '../tests/fixtures/stack/rest-fidelity.sql'), 'utf8'),
  );
  await db.exec(`alter role authenticator set pgrst.db_aggregates_enabled = 'true'`);
  await reloadSchemaCache(db);
  const rows: BenchRow[] = [];
  try {
    for (const p of PATHS) {
      const build = () =>
        new Request(`${stack.url}/rest/v1/${p.url}`, {
          headers: {
            apikey: stack.status.anon_key,
            authorization: `Bearer ${stack.status.anon_key}`,
            ...(p.prefer ? { prefer: p.prefer } : {}),
          },
        });
      const inStack = async (request: Request) => {
        const res = await stack.handle(request);
        if (res.status !== 200) {
          throw new Error(`REST ${p.url}: ${res.status} ${await res.text()}`);
        }
        await res.arrayBuffer();
      };
      const raw = () => db.query(p.raw);
      const requests = Array.from({ length: n + 50 }, build);
      await timeLoop(50, (i) => inStack(requests[i]!));
      await timeLoop(50, raw);
      const rest = await timeLoop(n, (i) => inStack(requests[i + 50]!));
      const direct = await timeLoop(n, raw);
      const ratio = percentile(rest, 50) / percentile(direct, 50);
      rows.push(
        { name: `REST ${p.label} in the stack p50`, value: percentile(rest, 50), unit: 'ms' },
        { name: `raw PGlite ${p.label} p50 (same work)`, value: percentile(direct, 50), unit: 'ms' },
        {
          name: `REST ${p.label} layer / raw p50 ratio`,
          value: ratio,
          unit: '×',
          note: `GET /rest/v1/${p.url}${p.prefer ? ` (Prefer: ${p.prefer})` : ''} against: ${p.raw}`,
        },
      );
    }
  } finally {
    await db.exec('alter role authenticator reset pgrst.db_aggregates_enabled');
  }
  return rows;
}
