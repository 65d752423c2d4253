import { isPgError } from '../db/database.ts';
import {
  isPgrstCode,
  pgErrorStatus,
  PGRST_STATUS,
  postgresState,
  type PgrstCode,
  type SqlState,
} from './error-codes.ts';
import { closest, NAME_HINT_MIN_SCORE } from './fuzzy.ts';

/** PostgREST's error body: always these four keys. */
export interface RestErrorBody {
  code: string;
  details: unknown;
  hint: string | null;
  message: string;
}

/**
 * An error answered to the client with PostgREST's JSON shape: a code of PostgREST's catalogue, whose status
 * it takes, or a Postgres SQLSTATE, with PostgREST's status for it.
 */
export class RestError extends Error {
  readonly status: number;

  constructor(
    readonly code: PgrstCode | SqlState,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
    /** Only for a Postgres error whose status depends on the request (42501: anon or not). */
    status?: number,
  ) {
    super(message);
    this.status = status ?? (isPgrstCode(code) ? PGRST_STATUS[code] : pgErrorStatus(code, false));
  }

  body(): RestErrorBody {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

export const parseError = (message: string, details: string | null = null) =>
  new RestError('PGRST100', message, details);

export const undefinedColumn = (table: string, column: string) =>
  new RestError('42703', `column ${table}.${column} does not exist`);

/** PGRST108: options (`rel.col=…`, `order=rel(col)`) for a resource the select does not embed. */
export const notEmbedded = (path: string) =>
  new RestError(
    'PGRST108',
    `'${path}' is not an embedded resource in this request`,
    null,
    `Verify that '${path}' is included in the 'select' query parameter.`,
  );

export const unknownColumnInBody = (table: string, column: string) =>
  new RestError('PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`);

/** PGRST205 (PostgREST 13) with its "Perhaps you meant" hint: the closest table or view of the schema. */
export function unknownTable(cache: { schema: string; relations: Map<string, unknown> }, table: string) {
  const near = closest([...cache.relations.keys()], table, NAME_HINT_MIN_SCORE);
  return new RestError(
    'PGRST205',
    `Could not find the table '${cache.schema}.${table}' in the schema cache`,
    null,
    near === null ? null : `Perhaps you meant the table '${cache.schema}.${near}'`,
  );
}

export const singleObjectError = (rows: number) =>
  new RestError(
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );

/** Turns whatever a request threw into a RestError; non-Postgres, non-REST failures are real faults. */
export function toRestError(e: unknown, anon: boolean): RestError {
  if (e instanceof RestError) {
    return e;
  }
  if (isPgError(e) && /^[0-9A-Z]{5}$/.test(e.code)) {
    const status = pgErrorStatus(e.code, anon);
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    return new RestError(postgresState(e.code), e.message, e.detail ?? null, e.hint ?? null, headers, status);
  }
  console.error('rest: unexpected failure', e);
  return new RestError('PGRSTX00', 'Internal server error');
}
