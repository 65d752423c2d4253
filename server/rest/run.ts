import type { Database, Queryable } from '../db/database.ts';
import { rolePreambleParams, ROLE_PREAMBLE } from '../db/as-role.ts';
import { statementTimeoutFor } from '../db/role-timeouts.ts';
import type { RequestRole } from '../http/request-role.ts';
import { EXTRA_SEARCH_PATH } from './schema-introspect.sql.ts';

// The role preamble (as-role.ts) plus what PostgREST sets too, in one statement: GET/HEAD run READ
// ONLY (setting transaction_read_only on is allowed at any point of a transaction) and the search path.
const SETTINGS_RW = `${ROLE_PREAMBLE}, set_config('search_path', $7, true)`;
const SETTINGS_RO = `${SETTINGS_RW}, set_config('transaction_read_only', 'on', true)`;
// No result row: set_config returns each value it set (2 kB of claims and headers), which would only be
// sent back, parsed and dropped. A subquery's volatile outputs are computed even when nothing reads them.
const PREAMBLE_RW = `select from (${SETTINGS_RW}) as preamble`;
const PREAMBLE_RO = `select from (${SETTINGS_RO}) as preamble`;

const searchPaths = new Map<string, string>();

/**
 * PostgREST's search path for a request: its schema, then the extra search path, each quoted
 * (`"personal", "public", "extensions"`), so unqualified names in SQL functions resolve as there.
 */
function searchPath(schema: string): string {
  let path = searchPaths.get(schema);
  if (path === undefined) {
    path = [schema, ...EXTRA_SEARCH_PATH].map((s) => `"${s.replaceAll('"', '""')}"`).join(', ');
    searchPaths.set(schema, path);
  }
  return path;
}

/** Carries a finished result out of a transaction that must roll back (Prefer: tx=rollback). */
class Rollback<T> extends Error {
  constructor(readonly result: T) {
    super('rollback requested (Prefer: tx=rollback)');
  }
}

export interface RunOptions {
  readOnly: boolean;
  /** The request runs one statement and nothing after it can fail it (see RestRequest.run). */
  oneStatement: boolean;
  rollback: boolean;
  method: string;
  path: string;
  /** The schema the request addresses: first on its search path, before the extra search path. */
  schema: string;
  headers: Record<string, string>;
}

/**
 * Runs one REST request in one transaction as its role, so that Postgres grants and row-level
 * security authorise it: BEGIN, the preamble, the request's statement(s), COMMIT (or ROLLBACK).
 */
export async function runAsRequest<T>(
  db: Database,
  who: RequestRole,
  options: RunOptions,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const statementTimeoutMs = await statementTimeoutFor(db, who.role);
  const params = rolePreambleParams(who, {
    method: options.method,
    path: options.path,
    headers: options.headers,
    statementTimeoutMs,
  });
  params.push(searchPath(options.schema));
  try {
    return await db.transaction(
      async (tx) => {
        const result = await fn(tx);
        if (options.rollback) {
          // Throwing is how Database.transaction rolls back; the result is recovered below.
          throw new Rollback(result);
        }
        return result;
      },
      // The preamble runs before fn's first statement (on PGlite in the same backend call).
      {
        preamble: { sql: options.readOnly ? PREAMBLE_RO : PREAMBLE_RW, params },
        // A read-only request's statement, or a write nothing after can fail: COMMIT may go along with it.
        endAfterFirstQuery: (options.readOnly || options.oneStatement) && !options.rollback,
        statementTimeoutMs,
        apiRole: who.role,
      },
    );
  } catch (e) {
    if (e instanceof Rollback) {
      return e.result as T;
    }
    throw e;
  }
}
