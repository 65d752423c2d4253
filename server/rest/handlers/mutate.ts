import type { Queryable } from '../../db/database.ts';
import { bodyRows, isObject, parseJsonBody, payloadColumns } from '../body.ts';
import { deleteSql, insertSql, updateSql } from '../build/mutation.ts';
import { buildLevel, checkUnusedPaths, type BuildContext, type ReadSource } from '../build/read.ts';
import { renderStatement, type RenderedRow } from '../build/statement.ts';
import { fieldSql, filterSql } from '../build/where.ts';
import { RestError, unknownColumnInBody, unknownTable } from '../errors.ts';
import { parseQuery, type ParsedQuery } from '../parse/query.ts';
import { contentType, renderBody, type RestResponse } from '../respond.ts';
import type { Relation } from '../schema-cache.ts';
import { ident, Params, qualified } from '../sql.ts';
import type { RestRequest } from './request.ts';

interface Outcome {
  row: RenderedRow;
  outputs: string[];
}

/** Runs the mutation alone (return=minimal: no RETURNING, so SELECT policies are not needed) or wrapped in a read. */
async function execute(
  req: RestRequest,
  rel: Relation,
  query: ParsedQuery,
  params: Params,
  mutation: string,
  representation: boolean,
  tx: Queryable,
): Promise<Outcome> {
  if (!representation) {
    const r = await tx.query(mutation, params.values);
    return { row: { total: null, page: r.affectedRows, body: '' }, outputs: [] };
  }
  // The outer read sees the RETURNING rows; root filters already applied to the mutation itself.
  const nodes = new Map(query.nodes);
  nodes.set('', { filters: [], order: [], limit: null, offset: null });
  const ctx: BuildContext = {
    cache: req.cache,
    aggregates: req.config.aggregatesEnabled,
    csv: req.media === 'csv',
    params,
    nodes,
    usedPaths: new Set(),
    counter: 0,
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
  const sql = renderStatement(source, level, {
    ctes: `with pgrst_source as (${mutation}) `,
    count: false,
    stripNulls: req.stripNulls,
    csv: req.media === 'csv',
    extra:
      req.method === 'POST'
        ? '(select count(*) from pgrst_source where pgrst_inserted) as inserted'
        : undefined,
  });
  const { rows } = await tx.query<RenderedRow>(sql, params.values);
  return { row: rows[0] ?? { total: null, page: 0, body: '' }, outputs: level.outputs };
}

/**
 * The filters of PATCH/DELETE, on the target table itself. With limit/offset (and order) only the
 * chosen rows are touched, picked by ctid as PostgREST does; a limit is never silently ignored.
 */
function rootWhere(rel: Relation, schema: string, query: ParsedQuery, params: Params): string[] {
  const root = query.nodes.get('');
  if (!root || (root.limit === null && root.offset === null)) {
    const level = {
      alias: rel.name,
      name: rel.name,
      columns: rel.columnMap,
      embeds: new Map<string, string>(),
    };
    return (root?.filters ?? []).map((f) => filterSql(level, f, params));
  }
  const level = {
    alias: 'pgrst_target',
    name: rel.name,
    columns: rel.columnMap,
    embeds: new Map<string, string>(),
  };
  const where = root.filters.map((f) => filterSql(level, f, params));
  const order = root.order.map(
    (t) =>
      `${fieldSql(level, t.field, params)}${t.direction ? ` ${t.direction}` : ''}${t.nulls ? ` nulls ${t.nulls}` : ''}`,
  );
  const picked =
    `select pgrst_target.ctid from ${qualified(schema, rel.name)} as pgrst_target` +
    (where.length > 0 ? ` where ${where.join(' and ')}` : '') +
    (order.length > 0 ? ` order by ${order.join(', ')}` : '') +
    (root.limit !== null ? ` limit ${params.add(root.limit)}` : '') +
    (root.offset !== null ? ` offset ${params.add(root.offset)}` : '');
  return [`${ident(rel.name)}.ctid = any(array(${picked}))`];
}

function buildMutation(
  req: RestRequest,
  rel: Relation,
  query: ParsedQuery,
  params: Params,
  returning: boolean,
): string | null {
  if (req.method === 'DELETE') {
    return deleteSql(rel, req.cache.schema, rootWhere(rel, req.cache.schema, query, params), returning);
  }
  const body = parseJsonBody(req.bodyText);
  // Postgres reads the body as the client wrote it (PostgREST does the same): numbers beyond a double's
  // precision (bigint, numeric) arrive exact, and nothing is serialized twice. JSON.parse above checked it.
  const text = req.bodyText?.trim() ? req.bodyText : '{}';
  if (req.method === 'PATCH') {
    if (!isObject(body)) {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'PATCH takes one JSON object');
    }
    const columns = Object.keys(body);
    for (const c of columns) {
      if (!rel.columnMap.has(c)) {
        throw unknownColumnInBody(rel.name, c);
      }
    }
    // An empty patch changes nothing (PostgREST answers without touching the table).
    return columns.length === 0
      ? null
      : updateSql(
          rel,
          req.cache.schema,
          columns,
          text,
          rootWhere(rel, req.cache.schema, query, params),
          returning,
          params,
        );
  }
  const rows = bodyRows(body);
  const columns = payloadColumns(rel, rows, query.columns);
  let conflict: { columns: string[]; merge: boolean } | null = null;
  if (req.prefs.resolution) {
    const target = query.onConflict ?? rel.pk;
    for (const c of target) {
      if (!rel.columnMap.has(c)) {
        throw unknownColumnInBody(rel.name, c);
      }
    }
    if (target.length === 0) {
      throw new RestError(
        400,
        'PGRST100',
        `"failed to parse on_conflict"`,
        `'${rel.name}' has no primary key; name the conflict columns with on_conflict`,
      );
    }
    conflict = { columns: target, merge: req.prefs.resolution === 'merge-duplicates' };
  }
  if (rows.length > 1 && columns.length === 0) {
    throw new RestError(
      400,
      'PGRST102',
      'Empty or invalid json',
      'Rows of a bulk insert need at least one column',
    );
  }
  return insertSql(
    {
      rel,
      schema: req.cache.schema,
      columns,
      payload: text,
      single: !Array.isArray(body),
      missingDefault: req.prefs.missing === 'default',
      conflict,
      returning,
    },
    params,
  );
}

const STATUS_MINIMAL: Record<string, number> = { POST: 201, PATCH: 204, DELETE: 204 };
const STATUS_REPRESENTATION: Record<string, number> = { POST: 201, PATCH: 200, DELETE: 200 };

/** POST (insert/upsert), PATCH (update), DELETE on /rest/v1/<table>, with PostgREST's statuses (§3.6). */
export async function mutateTable(req: RestRequest, table: string): Promise<RestResponse> {
  const rel = req.cache.relations.get(table);
  if (!rel) {
    throw unknownTable(req.cache.schema, table);
  }
  const query = parseQuery(req.params);
  const params = new Params();
  const representation =
    req.prefs.return === 'representation' || req.prefs.return === 'headers-only' || req.media === 'object';
  const mutation = buildMutation(req, rel, query, params, representation);
  const strictLimit =
    req.prefs.handling === 'strict' && req.prefs.maxAffected !== null && req.method !== 'POST';
  // return=minimal without a row limit: the statement alone decides, so COMMIT can go with it.
  const oneStatement = mutation !== null && !representation && !strictLimit;
  const outcome = await req.run(
    false,
    async (tx) => {
      const result: Outcome =
        mutation === null
          ? { row: { total: null, page: 0, body: '' }, outputs: [] }
          : await execute(req, rel, query, params, mutation, representation, tx);
      // max-affected with handling=strict: too many rows → error, and the throw rolls the change back.
      if (strictLimit && req.prefs.maxAffected !== null && result.row.page > req.prefs.maxAffected) {
        throw new RestError(
          400,
          'PGRST124',
          'Query result exceeds max-affected preference constraint',
          `The query affects ${result.row.page} rows`,
        );
      }
      // single() on a mutation: anything but one row is refused and rolled back, as PostgREST does.
      const body =
        representation && req.prefs.return !== 'headers-only' ? renderBody(result.row, req.media) : null;
      return { ...result, body };
    },
    oneStatement,
  );
  const headers: Record<string, string> = {};
  if (req.prefs.applied.length > 0) {
    headers['preference-applied'] = req.prefs.applied.join(', ');
  }
  if (req.prefs.count) {
    headers['content-range'] = `*/${outcome.row.page}`;
  }
  let status = (representation ? STATUS_REPRESENTATION : STATUS_MINIMAL)[req.method] ?? 200;
  if (
    req.method === 'POST' &&
    req.prefs.resolution === 'merge-duplicates' &&
    representation &&
    Number(outcome.row.inserted ?? 1) === 0 &&
    outcome.row.page > 0
  ) {
    status = 200;
  }
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
  headers['content-type'] = contentType(req.media);
  return { status, headers, body: outcome.body };
}
