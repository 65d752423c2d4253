import type { RestResponse } from '../respond.ts';
import type { RestRequest } from './request.ts';

// EXPLAIN's JSON numbers as Postgres prints them (explain.c): costs with two decimals, times with three.
const FIXED: Record<string, number> = {
  'Startup Cost': 2,
  'Total Cost': 2,
  'Actual Startup Time': 3,
  'Actual Total Time': 3,
  'Planning Time': 3,
  'Execution Time': 3,
};

/**
 * EXPLAIN (FORMAT JSON) laid out as Postgres lays it out (two-space indents, lists of values on one line).
 * Both database drivers hand back the json value parsed, so it is written again here; only the spelling of
 * a number can differ from Postgres's text (e.g. an integral "Actual Rows").
 */
function explainJson(value: unknown, indent = '', key = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v !== 'object' || v === null)) {
      return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    }
    return `[\n${value.map((v) => `${inner}${explainJson(v, inner)}`).join(',\n')}${value.length > 0 ? '\n' : ''}${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(
      ([k, v]) => `${inner}${JSON.stringify(k)}: ${explainJson(v, inner, k)}`,
    );
    return `{\n${entries.join(',\n')}${entries.length > 0 ? '\n' : ''}${indent}}`;
  }
  if (typeof value === 'number' && FIXED[key] !== undefined) {
    return value.toFixed(FIXED[key]);
  }
  return JSON.stringify(value);
}

/**
 * PostgREST's `Accept: application/vnd.pgrst.plan` (db-plan-enabled): the EXPLAIN of the request's own
 * statement, in its transaction as its role with its claims, each output row ended by a newline. As in
 * PostgREST, `analyze` executes the statement and a write is committed unless `Prefer: tx=rollback`.
 */
export async function planResponse(
  req: RestRequest,
  readOnly: boolean,
  sql: string,
  values: readonly unknown[],
): Promise<RestResponse> {
  const plan = req.plan!;
  const options = [`format ${plan.format}`, ...plan.options].join(', ');
  const { rows } = await req.run(readOnly, (tx) =>
    tx.query<{ 'QUERY PLAN': unknown }>(`explain (${options}) ${sql}`, values),
  );
  // Text rows are strings; a JSON plan is a string only if the driver left it unparsed.
  const lines = rows.map((r) => {
    const line = r['QUERY PLAN'];
    return typeof line === 'string' ? line : explainJson(line);
  });
  return {
    status: 200,
    headers: { 'content-type': plan.contentType },
    body: lines.map((l) => `${l}\n`).join(''),
  };
}
