import { bodyRows, isObject, payloadColumns } from '../body.ts';
import { deleteSql, insertSql, updateSql } from '../build/mutation.ts';
import { relatedOrderSql } from '../build/related-order.ts';
import { fieldSql, filterSql, type Level } from '../build/where.ts';
import { RestError, unknownColumnInBody } from '../errors.ts';
import type { ParsedQuery } from '../parse/query.ts';
import type { Relation } from '../introspection.ts';
import { tablePayload } from '../table-body.ts';
import { ident, qualified, type Params } from '../sql.ts';
import type { RestRequest } from './request.ts';

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
  // A write embeds nothing to order by: `rel(col)` is PGRST108 here.
  const order = root.order.map(
    (t) =>
      `${t.relation === null ? fieldSql(level, t.field, params) : relatedOrderSql({ ...t, relation: t.relation }, rel.name, new Map(), params)}${t.direction ? ` ${t.direction}` : ''}${t.nulls ? ` nulls ${t.nulls}` : ''}`,
  );
  const picked =
    `select pgrst_target.ctid from ${qualified(schema, rel.name)} as pgrst_target` +
    (where.length > 0 ? ` where ${where.join(' and ')}` : '') +
    (order.length > 0 ? ` order by ${order.join(', ')}` : '') +
    (root.limit !== null ? ` limit ${params.add(root.limit)}` : '') +
    (root.offset !== null ? ` offset ${params.add(root.offset)}` : '');
  return [`${ident(rel.name)}.ctid = any(array(${picked}))`];
}

/** The INSERT, UPDATE or DELETE of a request; null for a PATCH that changes nothing. */
export function mutationSql(
  req: RestRequest,
  rel: Relation,
  query: ParsedQuery,
  params: Params,
  returning: boolean,
): string | null {
  if (req.method === 'DELETE') {
    return deleteSql(rel, req.cache.schema, rootWhere(rel, req.cache.schema, query, params), returning);
  }
  if (req.method === 'PUT') {
    return putSql(req, rel, query, params, returning);
  }
  // Postgres reads a JSON body as the client wrote it (PostgREST does the same): numbers beyond a double's
  // precision (bigint, numeric) arrive exact, and nothing is serialized twice. JSON.parse checked it.
  const { value: body, text } = tablePayload(req);
  if (req.method === 'PATCH') {
    if (!isObject(body)) {
      throw new RestError('PGRST102', 'Empty or invalid json', 'PATCH takes one JSON object');
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
  // CSV and form bodies name their columns themselves: PostgREST ignores `columns` for them.
  const columns = payloadColumns(rel, rows, req.contentType === 'application/json' ? query.columns : null);
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
        'PGRST100',
        `"failed to parse on_conflict"`,
        `'${rel.name}' has no primary key; name the conflict columns with on_conflict`,
      );
    }
    conflict = { columns: target, merge: req.prefs.resolution === 'merge-duplicates' };
  }
  if (rows.length > 1 && columns.length === 0) {
    throw new RestError(
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

const invalidFilters = () =>
  new RestError('PGRST105', "Filters must include all and only primary key columns with 'eq' operators");

/**
 * PUT: a single-row upsert by primary key (PostgREST's MutationSingleUpsert). The filters must be exactly
 * `pk=eq.value` for every primary key column (405 PGRST105); the body's rows whose key equals them are
 * inserted or, on conflict, updated with every given column. The caller refuses anything but one row
 * written (400 PGRST115: the body's key differs from the URL's).
 */
function putSql(req: RestRequest, rel: Relation, query: ParsedQuery, params: Params, returning: boolean) {
  const filters = query.nodes.get('')?.filters ?? [];
  const keyFilters = filters.flatMap((f) =>
    f.kind === 'condition' && f.op === 'eq' && !f.negate && f.quantifier === null && f.field.path.length === 0
      ? [f]
      : [],
  );
  const fields = new Set(keyFilters.map((f) => f.field.name));
  if (
    rel.pk.length === 0 ||
    keyFilters.length !== filters.length ||
    fields.size !== rel.pk.length ||
    !rel.pk.every((c) => fields.has(c))
  ) {
    throw invalidFilters();
  }
  const { value: body, text } = tablePayload(req);
  const rows = bodyRows(body);
  const columns = payloadColumns(rel, rows, null);
  if (columns.length === 0) {
    throw putMismatch();
  }
  // The body's key must equal the URL's: compared on the row as the table types it.
  const row: Level = { alias: 'pgrst_p', name: rel.name, columns: rel.columnMap, embeds: new Map() };
  return insertSql(
    {
      rel,
      schema: req.cache.schema,
      columns,
      payload: text,
      single: !Array.isArray(body),
      missingDefault: false,
      conflict: { columns: rel.pk, merge: true },
      returning,
      rowFilter: keyFilters.map((f) => filterSql(row, f, params)),
    },
    params,
  );
}

export const putMismatch = () =>
  new RestError('PGRST115', 'Payload values do not match URL in primary key column(s)');

/** PUT takes no limit or offset (400 PGRST114); the Range header it ignores. */
export function checkPutRange(query: ParsedQuery): void {
  const root = query.nodes.get('');
  if (root && (root.limit !== null || root.offset !== null)) {
    throw new RestError('PGRST114', 'limit/offset querystring parameters are not allowed for PUT');
  }
}
