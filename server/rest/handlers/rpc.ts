import { isObject, parseJsonBody } from '../body.ts';
import { buildLevel, checkUnusedPaths, type BuildContext, type ReadSource } from '../build/read.ts';
import { callSql, chooseFunction } from '../build/rpc.ts';
import { renderStatement } from '../build/statement.ts';
import { RestError } from '../errors.ts';
import { parseQuery, type ParsedQuery } from '../parse/query.ts';
import { contentType, type RestResponse } from '../respond.ts';
import type { Column, RestFunction } from '../schema-cache.ts';
import { ident, Params } from '../sql.ts';
import { queryOne, readResponse, type RestRequest } from './request.ts';

function argumentsOf(req: RestRequest, name: string): { args: Record<string, unknown>; query: ParsedQuery } {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const argNames = new Set(
      (req.cache.functions.get(name) ?? []).flatMap((f) => f.inArgs.map((a) => a.name)),
    );
    const query = parseQuery(req.params, argNames);
    return { args: Object.fromEntries(query.rest), query };
  }
  const body = parseJsonBody(req.bodyText);
  if (!isObject(body)) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'RPC arguments are one JSON object');
  }
  return { args: body, query: parseQuery(req.params) };
}

/** The relation a function's rows belong to (setof <table>), so embeds can follow its foreign keys. */
const resultRelation = (req: RestRequest, fn: RestFunction) => {
  const name = fn.returnType.replace(new RegExp(`^${req.cache.schema}\\.`), '').replace(/^"(.*)"$/, '$1');
  return req.cache.relations.has(name) ? name : null;
};

/** POST/GET/HEAD /rest/v1/rpc/<fn> (wire contract §3.7). */
export async function callFunction(req: RestRequest, name: string): Promise<RestResponse> {
  const { args, query } = argumentsOf(req, name);
  const fn = chooseFunction(req.cache, name, Object.keys(args));
  const params = new Params();
  const { from, call } = callSql(req.cache, fn, args, params);
  const readOnly = req.method === 'GET' || req.method === 'HEAD';
  const fromClause = from ? ` from ${from}` : '';
  if (fn.returnType === 'void') {
    await req.run(readOnly, (tx) => tx.query(`select ${call}${fromClause}`, params.values));
    return { status: 204, headers: {}, body: null };
  }
  if (!fn.returnsSet && !fn.resultColumns) {
    const row = await req.run(readOnly, (tx) =>
      queryOne(tx, `select 0 as page, to_json(${call})::text as body${fromClause}`, params.values),
    );
    return {
      status: 200,
      headers: { 'content-type': contentType('json') },
      body: req.method === 'HEAD' ? null : (row.body ?? 'null'),
    };
  }
  const columns: Column[] = fn.resultColumns ?? [
    { name: fn.name, type: fn.returnType, nullable: true, default: null, identity: false, generated: false },
  ];
  const source: ReadSource = {
    from: from ? `${from} cross join lateral ${call}` : call,
    alias: fn.name,
    name: fn.name,
    columns,
    relationName: resultRelation(req, fn),
  };
  const ctx: BuildContext = {
    cache: req.cache,
    params,
    nodes: query.nodes,
    usedPaths: new Set(),
    counter: 0,
  };
  const level = buildLevel(ctx, source, fn.resultColumns ? query.select : [{ kind: 'star' }], '');
  checkUnusedPaths(ctx);
  const sql = renderStatement(source, level, {
    count: req.prefs.count !== null,
    stripNulls: req.stripNulls,
    scalar: fn.resultColumns ? undefined : ident(fn.name),
  });
  const row = await req.run(readOnly, async (tx) => {
    const r = await queryOne(tx, sql, params.values);
    // max-affected with handling=strict: too many rows → error, and the throw rolls the call back.
    if (req.prefs.handling === 'strict' && req.prefs.maxAffected !== null && r.page > req.prefs.maxAffected) {
      throw new RestError(
        400,
        'PGRST124',
        'Query result exceeds max-affected preference constraint',
        `The query affects ${r.page} rows`,
      );
    }
    return r;
  });
  if (!fn.returnsSet) {
    // A function returning one composite value answers with that object.
    return {
      status: 200,
      headers: { 'content-type': contentType('json') },
      body: req.method === 'HEAD' ? null : row.page === 1 ? row.body : 'null',
    };
  }
  if (req.prefs.return === 'minimal') {
    return { status: 204, headers: {}, body: null };
  }
  return readResponse(req, row, query.nodes.get('')?.offset ?? 0, level.outputs);
}
