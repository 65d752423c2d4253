import { RestError, unknownColumnInBody } from './errors.ts';
import type { Relation } from './introspection.ts';

export type JsonObject = Record<string, unknown>;

const badBody = (message: string, details: string | null = null) =>
  new RestError('PGRST102', message, details);

/** Parses a JSON request body; malformed JSON is PostgREST's 400 PGRST102, never a 500. */
export function parseJsonBody(text: string | null): unknown {
  if (text === null || text.trim() === '') {
    return {};
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badBody('Empty or invalid json', e instanceof Error ? e.message : null);
  }
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The rows of an insert body: one object or an array of objects. */
export function bodyRows(body: unknown): JsonObject[] {
  const rows = Array.isArray(body) ? body : [body];
  if (!rows.every(isObject)) {
    throw badBody('Empty or invalid json', 'The body must be a JSON object or an array of JSON objects');
  }
  return rows;
}

/**
 * The columns a mutation writes: the `columns` parameter when given (keys outside it are ignored),
 * else the body's keys (all objects of an array must have the same keys, as in PostgREST).
 * Every name must be a column of the relation (PGRST204), so only known identifiers reach the SQL.
 */
export function payloadColumns(rel: Relation, rows: JsonObject[], columnsParam: string[] | null): string[] {
  let columns: string[];
  if (columnsParam !== null) {
    columns = columnsParam;
  } else {
    columns = Object.keys(rows[0] ?? {});
    const key = [...columns].sort().join('\u0000');
    if (rows.some((r) => Object.keys(r).sort().join('\u0000') !== key)) {
      throw badBody('All object keys must match');
    }
  }
  for (const c of columns) {
    if (!rel.columnMap.has(c)) {
      throw unknownColumnInBody(rel.name, c);
    }
  }
  return [...new Set(columns)];
}

export { isObject };
