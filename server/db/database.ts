import type { IsolateMemory } from '../isolate-memory.ts';

/**
 * The one database interface the embedded stack uses, whichever engine is underneath:
 * PGlite (embedded default) or PostgreSQL through DATABASE_URL.
 */
export interface QueryField {
  name: string;
  dataTypeID: number;
}

export interface QueryResult<R = Record<string, unknown>> {
  rows: R[];
  fields: QueryField[];
  /** Rows touched by INSERT/UPDATE/DELETE; 0 for SELECT. */
  affectedRows: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs one or more statements without parameters (simple protocol). */
  exec(sql: string): Promise<void>;
}

/** A statement run first in a transaction, before `fn` (the request's role and JWT claims, say). */
export interface TransactionPreamble {
  sql: string;
  /** Text (or null) values only. */
  params: readonly (string | null)[];
}

export interface TransactionOptions {
  preamble?: TransactionPreamble;
  /**
   * The transaction ends with `fn`'s first query (on PGlite the preamble and the query run as one
   * implicit transaction, committed at the end of the same backend call), and a second query is an error. Only for a transaction whose outcome nothing after that query can change:
   * a read-only one, where committing and rolling back are the same.
   */
  endAfterFirstQuery?: boolean;
  /**
   * Each statement's time limit in milliseconds (the role's `statement_timeout`); past it the statement
   * fails with 57014. PostgreSQL enforces it from the preamble's setting; PGlite by raising its interrupt flags.
   */
  statementTimeoutMs?: number;
  /**
   * The API role the transaction acts as (anon, authenticated), when it acts for a client: on PostgreSQL
   * such transactions may not take the whole connection pool (postgres.ts).
   */
  apiRole?: string;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. A
   * preamble runs first; PGlite sends it together with BEGIN and `fn`'s first query (one backend call).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** LISTEN on a channel; resolves to the function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The memory of the threads the engine runs on, when it runs in this process (PGlite). */
  memory?(): Promise<IsolateMemory[]>;
  /** Set for a PGlite data directory (one process at a time): what the database was when it opened. */
  readonly openState?: OpenState;
}

/**
 * A persistent PGlite's state right after it opened and was brought up to date. `xmax` is the next
 * transaction id (pg_snapshot_xmax): any later change, DDL included, assigns a transaction id, so a file
 * written with the same xmax describes exactly this database (see rest/schema-cache-file.ts).
 */
export interface OpenState {
  /** The stack's data directory (pgdata's parent). */
  dataDir: string;
  /** vigil_platform.schema_state.hash: the schema sources the database was migrated from. */
  schemaHash: string;
  xmax: string;
}

/** A Postgres error as both engines surface it: SQLSTATE in `code`, plus the server's detail and hint. */
export interface PgError extends Error {
  code: string;
  detail?: string;
  hint?: string;
}

export function isPgError(e: unknown): e is PgError {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string';
}
