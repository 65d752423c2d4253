import type { Database, Queryable } from './database.ts';
import type { RequestRole } from '../http/request-role.ts';
import { statementTimeoutFor } from './role-timeouts.ts';

export interface RoleRequestInfo {
  method?: string;
  path?: string;
  /** Lower-cased request headers, exposed as request.headers like PostgREST does. */
  headers?: Record<string, string>;
  readOnly?: boolean;
  /** The role's statement time limit in milliseconds (role-timeouts.ts); 0 or absent: none. */
  statementTimeoutMs?: number;
}

/**
 * The statement that makes a transaction act as a request's role (PostgREST's pre-request query), with the
 * role's statement time limit (PostgreSQL enforces it; PGlite ignores it, and pglite-interrupt.ts enforces it).
 */
export const ROLE_PREAMBLE = `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
  set_config('request.method', $3, true), set_config('request.path', $4, true), set_config('request.headers', $5, true),
  set_config('statement_timeout', $6, true)`;

// The same RequestRole object comes back for every request with the same tokens (rest/role-cache.ts).
const claimsJson = new WeakMap<RequestRole, string>();

export function rolePreambleParams(who: RequestRole, info: RoleRequestInfo = {}): string[] {
  let claims = claimsJson.get(who);
  if (claims === undefined) {
    claims = JSON.stringify(who.claims);
    claimsJson.set(who, claims);
  }
  return [
    who.role,
    claims,
    info.method ?? '',
    info.path ?? '',
    JSON.stringify(info.headers ?? {}),
    String(info.statementTimeoutMs ?? 0),
  ];
}

/**
 * Runs `fn` in one transaction as the request's Postgres role with its JWT claims set, so that
 * row-level security decides what the request may see and change.
 */
export async function runAs<T>(
  db: Database,
  who: RequestRole,
  fn: (tx: Queryable) => Promise<T>,
  info: RoleRequestInfo = {},
): Promise<T> {
  // transaction_read_only may be switched on at any point of a transaction (SET TRANSACTION READ ONLY).
  const sql = info.readOnly
    ? `${ROLE_PREAMBLE}, set_config('transaction_read_only', 'on', true)`
    : ROLE_PREAMBLE;
  const statementTimeoutMs = info.statementTimeoutMs ?? (await statementTimeoutFor(db, who.role));
  return db.transaction(fn, {
    preamble: { sql, params: rolePreambleParams(who, { ...info, statementTimeoutMs }) },
    statementTimeoutMs,
    apiRole: who.role,
  });
}
