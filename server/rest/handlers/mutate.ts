import type { Queryable } from '../../db/database.ts';
import { buildLevel, checkUnusedPaths } from '../build/read.ts';
import type { BuildContext, ReadSource, RenderedRow } from '../build/shapes.ts';
import { renderStatement } from '../build/statement.ts';
import { RestError, unknownTable } from '../errors.ts';
import { parseQuery, type ParsedQuery } from '../parse/query.ts';
import { applyTopLevelRange } from '../parse/range.ts';
import { contentRange, contentType, renderBody, type RestResponse } from '../respond.ts';
import type { Relation } from '../introspection.ts';
import { Params, qualified } from '../sql.ts';
import { checkPutRange, mutationSql, putMismatch } from './mutation-sql.ts';
import { planResponse } from './plan.ts';
import type { RestRequest } from './request.ts';

/** The mutation wrapped in a read of its RETURNING rows (select, embeds, media), as one statement. */
function representationSql(
  req: RestRequest,
  rel: Relation,
  query: ParsedQuery,
  params: Params,
  mutation: string,
): string {
  // The outer read sees the RETURNING rows; root filters already applied to the mutation itself.
  const nodes = new Map(query.nodes);
  nodes.set('', { filters: [], order: [], limit: null, offset: null });
  const ctx: BuildContext = {
    cache: req.cache,
    aggregates: req.config.aggregatesEnabled,
    params,
    nodes,
    usedPaths: new Set(),
  };
  const source: ReadSource = {
    from: 'pgrst_source',
    alias: rel.name,
    name: rel.name,
    columns: rel.columns,
    relationName: rel.name,
  };
  const select =
    req.prefs.return === 'headers-only'
      ? rel.pk.map((c) => ({
          kind: 'column' as const,
          field: { name: c, path: [] },
          alias: null,
          cast: null,
        }))
      : query.select;
  const level = buildLevel(ctx, source, select, '');
  checkUnusedPaths(ctx);
  const inserts = req.method === 'POST' || req.method === 'PUT';
  return renderStatement(source, level, {
    ctes: `with pgrst_source as (${mutation}) `,
    count: false,
    stripNulls: req.stripNulls,
    media: req.media,
    extra: inserts ? '(select count(*) from pgrst_source where pgrst_inserted) as inserted' : undefined,
  });
}

const NOTHING: RenderedRow = { total: null, page: 0, body: '' };

/** Runs the mutation alone (return=minimal: no RETURNING, so SELECT policies are not needed) or wrapped in a read. */
async function execute(tx: Queryable, sql: string | null, representation: boolean, values: unknown[]) {
  if (sql === null) {
    return NOTHING;
  }
  if (!representation) {
    return { ...NOTHING, page: (await tx.query(sql, values)).affectedRows };
  }
  const { rows } = await tx.query<RenderedRow>(sql, values);
  return rows[0] ?? NOTHING;
}

const STATUS_MINIMAL: Record<string, number> = { POST: 201, PUT: 204, PATCH: 204, DELETE: 204 };
const STATUS_REPRESENTATION: Record<string, number> = { POST: 201, PUT: 200, PATCH: 200, DELETE: 200 };
// PUT reports only these preferences as applied (PostgREST's MutationSingleUpsert response).
const PUT_PREFERENCES = ['return', 'count', 'tx', 'handling'];

/** The status of a write: an upsert that inserted nothing answers 200, a PUT that inserted 201. */
function writeStatus(req: RestRequest, representation: boolean, row: RenderedRow): number {
  const status = (representation ? STATUS_REPRESENTATION : STATUS_MINIMAL)[req.method] ?? 200;
  const inserted = Number(row.inserted ?? 1);
  if (req.method === 'PUT' && representation) {
    return inserted > 0 ? 201 : 200;
  }
  if (
    req.method === 'POST' &&
    req.prefs.resolution === 'merge-duplicates' &&
    representation &&
    inserted === 0 &&
    row.page > 0
  ) {
    return 200;
  }
  return status;
}

/** POST (insert/upsert), PUT (single upsert), PATCH (update), DELETE on /rest/v1/<table>, with PostgREST's statuses. */
export async function mutateTable(req: RestRequest, table: string): Promise<RestResponse> {
  const query = parseQuery(req.params);
  if (req.method === 'PUT') {
    checkPutRange(query);
  }
  // limit/offset of PATCH/DELETE, judged as for reads (a negative limit is 416); no db-max-rows on writes.
  applyTopLevelRange(query.nodes.get('')!, req.method, undefined, null);
  const rel = req.cache.relations.get(table);
  if (!rel) {
    throw unknownTable(req.cache, table);
  }
  const params = new Params();
  const representation =
    req.prefs.return === 'representation' || req.prefs.return === 'headers-only' || req.media === 'object';
  const mutation = mutationSql(req, rel, query, params, representation);
  const sql =
    mutation !== null && representation ? representationSql(req, rel, query, params, mutation) : mutation;
  if (req.plan) {
    // A PATCH without columns plans what PostgREST runs for it: a read of no rows.
    const planned = sql ?? `select from ${qualified(req.cache.schema, rel.name)} where false`;
    return planResponse(req, false, planned, params.values);
  }
  const strictLimit =
    req.prefs.handling === 'strict' && req.prefs.maxAffected !== null && req.method !== 'POST';
  // return=minimal without a row limit or PUT's check: the statement alone decides, so COMMIT can go with it.
  const oneStatement = mutation !== null && !representation && !strictLimit && req.method !== 'PUT';
  const outcome = await req.run(
    false,
    async (tx) => {
      const row = await execute(tx, sql, representation, params.values);
      // The throws below roll the change back: PUT must write exactly the one row the URL names…
      if (req.method === 'PUT' && row.page !== 1) {
        throw putMismatch();
      }
      // …and max-affected with handling=strict caps the rows written.
      if (strictLimit && req.prefs.maxAffected !== null && row.page > req.prefs.maxAffected) {
        throw new RestError(
          'PGRST124',
          'Query result exceeds max-affected preference constraint',
          `The query affects ${row.page} rows`,
        );
      }
      // single() on a mutation: anything but one row is refused and rolled back, as PostgREST does.
      const body = representation && req.prefs.return !== 'headers-only' ? renderBody(row, req.media) : null;
      return { row, body };
    },
    oneStatement,
  );
  const headers: Record<string, string> = {};
  const applied =
    req.method === 'PUT'
      ? req.prefs.applied.filter((p) => PUT_PREFERENCES.includes(p.split('=')[0]!))
      : req.prefs.applied;
  if (applied.length > 0) {
    headers['preference-applied'] = applied.join(', ');
  }
  // PostgREST sends Content-Range on every insert, update and delete (not on PUT), counted or not.
  if (req.method !== 'PUT') {
    const total = req.prefs.count ? outcome.row.page : null;
    headers['content-range'] =
      req.method === 'PATCH' ? contentRange(0, outcome.row.page - 1, total) : contentRange(1, 0, total);
  }
  const status = writeStatus(req, representation, outcome.row);
  if (
    req.prefs.return === 'headers-only' &&
    req.method === 'POST' &&
    outcome.row.page === 1 &&
    rel.pk.length > 0
  ) {
    const first = (JSON.parse(`[${outcome.row.body}]`) as Record<string, unknown>[])[0] ?? {};
    headers.location = `/${table}?${rel.pk.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(first[c]))}`).join('&')}`;
    return { status, headers, body: null };
  }
  if (outcome.body === null) {
    return {
      status: req.method === 'POST' ? status : (STATUS_MINIMAL[req.method] ?? 204),
      headers,
      body: null,
    };
  }
  headers['content-type'] = contentType(req.media, req.stripNulls);
  return { status, headers, body: outcome.body };
}
