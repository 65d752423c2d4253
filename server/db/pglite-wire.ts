import { parse, protocol, types } from '@electric-sql/pglite';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import type { QueryResult } from './database.ts';

/**
 * What a transaction or a query needs from PGlite's engine (pglite-client.ts implements it on the engine's
 * thread): run one batch of wire-protocol messages, and the type tables to serialize and parse values.
 */
export interface WireBackend {
  readonly parsers: Record<number | string, types.Parser>;
  readonly serializers: Record<number | string, types.Serializer>;
  /**
   * Runs one batch and answers the backend's messages up to the first error, which it throws. `sync` runs
   * PGlite's syncToFs after the batch; `timeoutMs` is the statement time limit (pglite-interrupt.ts).
   */
  execProtocol(batch: Uint8Array, options: { sync: boolean; timeoutMs?: number }): Promise<Message[]>;
  /** Runs `fn` with the engine to itself: no other query or transaction interleaves. */
  runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

/** A backend message as node-postgres's parser gives it (pglite-client.ts). */
export type Message = BackendMessage;

const { serialize } = protocol;

// Values cross the WASM boundary as text and are parsed only where the JS type is lossless; the REST
// layer renders JSON inside Postgres (to_json), so these parsers serve only internal queries.
export const PARSERS: Record<number, types.Parser> = {
  [types.INT8]: (v: string) => (Number.isSafeInteger(Number(v)) ? Number(v) : v),
  [types.NUMERIC]: (v: string) => v,
  [types.TIMESTAMPTZ]: (v: string) => v,
  [types.TIMESTAMP]: (v: string) => v,
  [types.DATE]: (v: string) => v,
};

export const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * Text values for Bind without asking Postgres for the parameter types first, as node-postgres sends
 * them (type unknown, inferred by the server). Null when a value is not a plain scalar: such queries
 * describe the statement first so that PGlite's typed serializers apply, exactly as its `query` does.
 */
export function plainTextValues(params: readonly unknown[]): (string | null)[] | null {
  const out: (string | null)[] = [];
  for (const v of params) {
    if (v === null || v === undefined) {
      out.push(null);
    } else if (typeof v === 'string') {
      out.push(v);
    } else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') {
      out.push(String(v));
    } else {
      return null;
    }
  }
  return out;
}

/**
 * Values serialized by PGlite's serializers for the types Postgres infers (as PGlite's `query`): one call
 * that parses `sql` as the unnamed statement and describes it. The unnamed statement stays prepared.
 */
export async function typedValues(
  backend: WireBackend,
  sql: string,
  params: readonly unknown[],
  timeoutMs?: number,
): Promise<(string | null)[]> {
  const messages = await backend.execProtocol(
    concat([serialize.parse({ text: sql }), serialize.describe({ type: 'S' }), serialize.sync()]),
    { sync: false, timeoutMs },
  );
  const oids = parse.parseDescribeStatementResults(messages);
  return params.map((v, i) => {
    if (v === null || v === undefined) {
      return null;
    }
    const serializer = backend.serializers[oids[i] ?? 0];
    if (serializer) {
      return serializer(v);
    }
    // A type without a serializer (PGlite's own `query` would send '[object Object]' for an object).
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
      return String(v);
    }
    return JSON.stringify(v) ?? null;
  });
}

/** The result of the last statement of a batch: the messages after the `skip`th CommandComplete. */
export function lastResult<R>(backend: WireBackend, messages: Message[], skip: number): QueryResult<R> {
  let seen = 0;
  let from = 0;
  while (seen < skip && from < messages.length) {
    if (messages[from]!.name === 'commandComplete') {
      seen++;
    }
    from++;
  }
  const [r] = parse.parseResults(messages.slice(from), backend.parsers);
  return { rows: (r?.rows ?? []) as R[], fields: r?.fields ?? [], affectedRows: r?.affectedRows ?? 0 };
}
