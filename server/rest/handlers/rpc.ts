import { isObject, parseJsonBody } from '../body.ts';
import { buildLevel, checkUnusedPaths } from '../build/read.ts';
import type { BuildContext, ReadSource } from '../build/shapes.ts';
import { callSql, chooseFunction, type BodyKind } from '../build/rpc.ts';
import { renderStatement } from '../build/statement.ts';
import { RestError } from '../errors.ts';
import { parseQuery, type ParsedQuery } from '../parse/query.ts';
import { applyTopLevelRange } from '../parse/range.ts';
import { contentType, type RestResponse } from '../respond.ts';
import type { Column, RestFunction } from '../introspection.ts';
import { ident, Params } from '../sql.ts';
import { planResponse } from './plan.ts';
import { queryOne, readResponse, type RestRequest } from './request.ts';

interface Call {
  query: ParsedQuery;
  keys: string[];
  body: BodyKind;
  /** The body as sent, for a function that takes it whole (one json, text, xml or bytea parameter). */
  raw: string | Uint8Array | null;
  /** The arguments: a GET's parameter values (repeated ones kept for VARIADIC), or the JSON object. */
  values: Map<string, unknown[]>;
}

const RAW_BODIES: Record<string, 'text' | 'xml' | 'bytea'> = {
  'text/plain': 'text',
  'text/xml': 'xml',
  'application/octet-stream': 'bytea',
};

/** What the request passes: GET parameters that are not filters, or the POST body (PostgREST's rules). */
function callOf(req: RestRequest): Call {
  const values = new Map<string, unknown[]>();
  if (req.method === 'GET' || req.method === 'HEAD') {
    const query = parseQuery(req.params, true);
    for (const [k, v] of query.rest) {
      values.set(k, [...(values.get(k) ?? []), v]);
    }
    return { query, keys: [...values.keys()], body: null, raw: null, values };
  }
  const query = parseQuery(req.params);
  const whole = RAW_BODIES[req.contentType];
  if (whole) {
    const raw = whole === 'bytea' ? (req.bodyBytes ?? new Uint8Array()) : (req.bodyText ?? '');
    return { query, keys: [], body: whole, raw, values };
  }
  if (req.contentType === 'application/x-www-form-urlencoded') {
    // Form fields are named text arguments, like a GET's parameters (repeated ones for VARIADIC).
    for (const [k, v] of new URLSearchParams(req.bodyText ?? '')) {
      values.set(k, [...(values.get(k) ?? []), v]);
    }
    return { query, keys: [...values.keys()], body: null, raw: null, values };
  }
  if (req.contentType !== 'application/json') {
    throw new RestError('PGRST102', `Content-Type not acceptable: ${req.contentType}`);
  }
  const parsed = parseJsonBody(req.bodyText);
  // A JSON array: PostgREST calls the function with its first object.
  const first: unknown = Array.isArray(parsed) ? (parsed[0] ?? {}) : parsed;
  if (!isObject(first)) {
    throw new RestError('PGRST102', 'Empty or invalid json', 'RPC arguments are one JSON object');
  }
  const keys = query.columns ?? Object.keys(first);
  for (const k of keys) {
    if (k in first) {
      values.set(k, [first[k]]);
    }
  }
  const raw = req.bodyText?.trim() ? req.bodyText : '{}';
  return { query, keys, body: 'json', raw, values };
}

/** The argument object: the last value of a repeated GET parameter, or all of them for VARIADIC. */
function argumentsFor(fn: RestFunction, call: Call): Record<string, unknown> {
  const variadic = new Set(fn.inArgs.filter((a) => a.mode === 'v').map((a) => a.name));
  const args: Record<string, unknown> = {};
  for (const [k, vs] of call.values) {
    args[k] = variadic.has(k) && call.body === null ? vs : vs[vs.length - 1];
  }
  return args;
}

/**
 * The alias PostgREST reads a function's rows under (its funcTableName): the composite type it returns (a
 * table's, a type's, `record` for TABLE or OUT results), else the function's own name. Postgres names it in
 * its errors (`column messages.nope does not exist`).
 */
function rowsAlias(fn: RestFunction): string {
  if (fn.returnRelation !== null) {
    return fn.returnRelation;
  }
  if (fn.returnTypeKind === 'c') {
    return unquotedTypeName(fn.returnType);
  }
  return fn.resultColumns !== null ? 'record' : fn.name;
}

/** `schema.type` or `"Odd Name"` as format_type writes it → the bare type name. */
function unquotedTypeName(formatted: string): string {
  const m = /(?:^|\.)("(?:[^"]|"")*"|[^."]+)$/.exec(formatted);
  const last = m?.[1] ?? formatted;
  return last.startsWith('"') ? last.slice(1, -1).replaceAll('""', '"') : last;
}

/** The relation a function's rows belong to (setof <table>, or one row of it), so embeds can follow it. */
const resultRelation = (req: RestRequest, fn: RestFunction) =>
  fn.returnRelation !== null && req.cache.relations.has(fn.returnRelation) ? fn.returnRelation : null;

/** The call in a CTE of its own, so that counting the rows does not call the function a second time. */
function callCte(req: RestRequest, fn: RestFunction, call: Call, params: Params): string {
  const { from, call: invoke } = callSql(req.cache, fn, argumentsFor(fn, call), call.raw, params);
  const scalar = fn.resultColumns === null;
  const body = scalar
    ? `select ${invoke} as pgrst_scalar${from ? ` from ${from}` : ''}`
    : from
      ? `select pgrst_f.* from ${from} cross join lateral ${invoke} as pgrst_f`
      : `select * from ${invoke}`;
  return `with pgrst_call as materialized (${body}) `;
}

function strictMaxAffected(req: RestRequest, rows: number): void {
  if (req.prefs.handling === 'strict' && req.prefs.maxAffected !== null && rows > req.prefs.maxAffected) {
    throw new RestError(
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${rows} rows`,
    );
  }
}

/** POST/GET/HEAD /rest/v1/rpc/<fn>, shaped as PostgREST shapes each return type. */
export async function callFunction(req: RestRequest, name: string): Promise<RestResponse> {
  const call = callOf(req);
  const maxRows = req.config.maxRows;
  applyTopLevelRange(call.query.nodes.get('')!, req.method, req.rangeHeader, maxRows);
  const fn = chooseFunction(req.cache, name, call.keys, call.body);
  const params = new Params();
  const ctes = callCte(req, fn, call, params);
  // GET and HEAD run read-only; so does POST to a STABLE or IMMUTABLE function (PostgREST's txMode).
  const readOnly = req.method === 'GET' || req.method === 'HEAD' || fn.volatility !== 'v';
  const single = !fn.returnsSet;
  const countHeaders = (page: number, total: number | null): Record<string, string> => ({
    'content-range': `0-${page - 1}/${total ?? '*'}`,
    ...(req.prefs.count ? { 'preference-applied': `count=${req.prefs.count}` } : {}),
  });
  if (fn.returnType === 'void') {
    const call = `${ctes}select from pgrst_call`;
    if (req.plan) {
      return planResponse(req, readOnly, call, params.values);
    }
    await req.run(readOnly, (tx) => tx.query(call, params.values));
    return { status: 204, headers: countHeaders(1, req.prefs.count ? 1 : null), body: null };
  }
  const relationName = resultRelation(req, fn);
  const columns: Column[] = fn.resultColumns ?? [
    {
      name: 'pgrst_scalar',
      type: fn.returnType,
      nullable: true,
      default: null,
      identity: false,
      generated: false,
    },
  ];
  const source: ReadSource = {
    from: 'pgrst_call',
    alias: rowsAlias(fn),
    name: fn.name,
    columns,
    relationName,
  };
  const ctx: BuildContext = {
    cache: req.cache,
    aggregates: req.config.aggregatesEnabled,
    params,
    nodes: call.query.nodes,
    usedPaths: new Set(),
    maxRows,
  };
  const scalar = fn.resultColumns === null;
  const level = buildLevel(ctx, source, scalar ? [{ kind: 'star' }] : call.query.select, '');
  checkUnusedPaths(ctx);
  const sql = renderStatement(source, level, {
    ctes,
    count: req.prefs.count !== null,
    stripNulls: req.stripNulls,
    media: req.media,
    maxRows,
    scalar: scalar ? ident('pgrst_scalar') : undefined,
  });
  if (req.plan) {
    return planResponse(req, readOnly, sql, params.values);
  }
  const row = await req.run(readOnly, async (tx) => {
    const r = await queryOne(tx, sql, params.values);
    // max-affected with handling=strict: too many rows → error, and the throw rolls the call back.
    strictMaxAffected(req, r.page);
    return r;
  });
  if (single) {
    // One value or one row: the value itself (PostgREST: `json_agg(...)->0`), counted as one row; as CSV or
    // GeoJSON, the one row in that form.
    const asJson = req.media === 'json' || req.media === 'object';
    const headers = {
      'content-type': asJson ? contentType('json') : contentType(req.media),
      ...countHeaders(1, req.prefs.count ? 1 : null),
    };
    const body = !asJson || row.page >= 1 ? row.body : 'null';
    return { status: 200, headers, body: req.method === 'HEAD' ? null : body };
  }
  if (req.prefs.return === 'minimal') {
    return { status: 204, headers: {}, body: null };
  }
  return readResponse(req, row, call.query.nodes.get('')?.offset ?? 0);
}
