import type { Queryable } from '../../db/database.ts';
import { buildLevel, checkUnusedPaths } from '../build/read.ts';
import type { BuildContext, ReadSource } from '../build/shapes.ts';
import { applyCountMode } from '../build/count.ts';
import { renderStatement } from '../build/statement.ts';
import { unknownTable } from '../errors.ts';
import { parseQuery } from '../parse/query.ts';
import { applyTopLevelRange } from '../parse/range.ts';
import type { RestResponse } from '../respond.ts';
import { contentLocation } from '../location.ts';
import { Params, qualified } from '../sql.ts';
import { planResponse } from './plan.ts';
import { queryOne, readResponse, type RestRequest } from './request.ts';

/** GET/HEAD /rest/v1/<table>: one statement, rendered to JSON by Postgres. */
export async function readTable(req: RestRequest, table: string): Promise<RestResponse> {
  const rel = req.cache.relations.get(table);
  if (!rel) {
    throw unknownTable(req.cache, table);
  }
  const query = parseQuery(req.params);
  const maxRows = req.config.maxRows;
  applyTopLevelRange(query.nodes.get('')!, req.method, req.rangeHeader, maxRows);
  const ctx: BuildContext = {
    cache: req.cache,
    aggregates: req.config.aggregatesEnabled,
    params: new Params(),
    nodes: query.nodes,
    usedPaths: new Set(),
    maxRows,
  };
  const source: ReadSource = {
    from: qualified(req.cache.schema, table),
    alias: table,
    name: table,
    columns: rel.columns,
    relationName: table,
  };
  const level = buildLevel(ctx, source, query.select, '');
  checkUnusedPaths(ctx);
  const sql = renderStatement(source, level, {
    count: req.prefs.count,
    stripNulls: req.stripNulls,
    media: req.media,
    maxRows,
  });
  if (req.plan) {
    return planResponse(req, true, sql, ctx.params.values);
  }
  const read = await req.run(true, (tx) => queryOne(tx, sql, ctx.params.values));
  const explain = <T>(fn: (tx: Queryable) => Promise<T>) => req.run(true, fn);
  const row = await applyCountMode(explain, req.prefs.count, read, source, level, ctx.params.values, maxRows);
  return readResponse(req, row, query.nodes.get('')?.offset ?? 0, contentLocation(table, req.rawQuery));
}
