import { protocol } from '@electric-sql/pglite';
import type { WireBackend } from './pglite-wire.ts';

const { serialize } = protocol;

/**
 * A Bind message for a named statement with text parameters and text results, byte for byte what
 * PGlite's `serialize.bind` writes, in one allocation: its growing writer cost ~80 µs for a REST request's
 * preamble (the JWT claims and request headers as JSON).
 */
export function bindMessage(statement: string, values: readonly (string | null)[]): Uint8Array {
  const encoded = values.map((v) => (v === null ? null : Buffer.from(v, 'utf8')));
  const name = Buffer.from(statement, 'utf8');
  // Length (itself included), portal "", statement, format codes, values, result format codes.
  let length = 4 + 1 + name.length + 1 + 2 + 2 * values.length + 2 + 2;
  for (const e of encoded) {
    length += 4 + (e === null ? 0 : e.length);
  }
  const out = Buffer.alloc(1 + length);
  let at = out.write('B', 0, 'latin1');
  at = out.writeInt32BE(length, at);
  at = out.writeUInt8(0, at);
  at += name.copy(out, at);
  at = out.writeUInt8(0, at);
  at = out.writeInt16BE(values.length, at);
  // Every parameter in text format (code 0; Buffer.alloc already wrote the zeros).
  at += 2 * values.length;
  at = out.writeInt16BE(values.length, at);
  for (const e of encoded) {
    if (e === null) {
      at = out.writeInt32BE(-1, at);
    } else {
      at = out.writeInt32BE(e.length, at);
      at += e.copy(out, at);
    }
  }
  out.writeInt16BE(0, at);
  return out;
}

/** How many distinct statements stay prepared per database; the least recently used is closed first. */
const MAX_PREPARED = 256;

/**
 * Named prepared statements of one PGlite session, by SQL text. Parsing and planning cost about as much
 * as running a small statement (~0.1 ms each on PGlite), so a statement seen before is only bound and
 * executed. Postgres re-plans a prepared statement itself when the schema, the role (row-level security)
 * or search_path changes; a statement that fails is forgotten, so it is parsed afresh next time (after a
 * DDL change of its result type, say).
 */
export class StatementCache {
  private readonly names = new Map<string, string>();
  /** Close messages for evicted statements, sent with the next batch. */
  private closing: Uint8Array[] = [];
  private counter = 0;

  /** The messages that make `sql` a bound portal: Parse only the first time. */
  bind(sql: string, values: (string | null)[]): { parts: Uint8Array[]; name: string } {
    let name = this.names.get(sql);
    const parts = this.closing;
    this.closing = [];
    if (name === undefined) {
      name = `vigil_${++this.counter}`;
      this.names.set(sql, name);
      parts.push(serialize.parse({ text: sql, name }));
      if (this.names.size > MAX_PREPARED) {
        const [oldest, oldName] = this.names.entries().next().value!;
        this.names.delete(oldest);
        parts.unshift(serialize.close({ type: 'S', name: oldName }));
      }
    } else {
      // Most recently used last: re-insert.
      this.names.delete(sql);
      this.names.set(sql, name);
    }
    parts.push(bindMessage(name, values));
    return { parts, name };
  }

  /** Forgets `sql` after a failed batch; its statement is closed with the next batch, if it was prepared. */
  forget(sql: string): void {
    const name = this.names.get(sql);
    if (name !== undefined) {
      this.names.delete(sql);
      this.closing.push(serialize.close({ type: 'S', name }));
    }
  }
}

const caches = new WeakMap<WireBackend, StatementCache>();

export function statementCacheFor(db: WireBackend): StatementCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new StatementCache();
    caches.set(db, cache);
  }
  return cache;
}
