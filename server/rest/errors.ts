import { isPgError } from '../db/database.ts';
import { closest, NAME_HINT_MIN_SCORE } from './fuzzy.ts';

/** PostgREST's error body (wire contract §3.9): always these four keys. */
export interface RestErrorBody {
  code: string;
  details: unknown;
  hint: string | null;
  message: string;
}

/** An error answered to the client with PostgREST's JSON shape and status. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): RestErrorBody {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

export const parseError = (message: string, details: string | null = null) =>
  new RestError(400, 'PGRST100', message, details);

export const undefinedColumn = (table: string, column: string) =>
  new RestError(400, '42703', `column ${table}.${column} does not exist`);

/** PGRST108: options (`rel.col=…`, `order=rel(col)`) for a resource the select does not embed. */
export const notEmbedded = (path: string) =>
  new RestError(
    400,
    'PGRST108',
    `'${path}' is not an embedded resource in this request`,
    null,
    `Verify that '${path}' is included in the 'select' query parameter.`,
  );

export const unknownColumnInBody = (table: string, column: string) =>
  new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`);

/** PGRST205 (PostgREST 13) with its "Perhaps you meant" hint: the closest table or view of the schema. */
export function unknownTable(cache: { schema: string; relations: Map<string, unknown> }, table: string) {
  const near = closest([...cache.relations.keys()], table, NAME_HINT_MIN_SCORE);
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${cache.schema}.${table}' in the schema cache`,
    null,
    near === null ? null : `Perhaps you meant the table '${cache.schema}.${near}'`,
  );
}

export const singleObjectError = (rows: number) =>
  new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );

/** PostgREST's SQLSTATE → HTTP status table (Error.hs pgErrorStatus). */
function pgStatus(code: string, anon: boolean): number {
  if (code === '42501') {
    return anon ? 401 : 403;
  }
  if (/^PT\d{3}$/.test(code)) {
    return Number(code.slice(2));
  }
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '42883': 404,
    '42P01': 404,
    '42P17': 500,
    P0001: 400,
  };
  if (exact[code]) {
    return exact[code];
  }
  const byClass: Record<string, number> = {
    '08': 503,
    '09': 500,
    '0L': 403,
    '0P': 403,
    '25': 500,
    '28': 403,
    '2D': 500,
    '38': 500,
    '39': 500,
    '3B': 500,
    '40': 500,
    '53': 503,
    '54': 500,
    '55': 500,
    '57': 500,
    '58': 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** Turns whatever a request threw into a RestError; non-Postgres, non-REST failures are real faults. */
export function toRestError(e: unknown, anon: boolean): RestError {
  if (e instanceof RestError) {
    return e;
  }
  if (isPgError(e) && /^[0-9A-Z]{5}$/.test(e.code)) {
    const status = pgStatus(e.code, anon);
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    return new RestError(status, e.code, e.message, e.detail ?? null, e.hint ?? null, headers);
  }
  console.error('rest: unexpected failure', e);
  return new RestError(500, 'PGRST000', 'Internal server error');
}
