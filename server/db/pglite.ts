import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.ts';
import { createInterrupter, shareSideModules, sharedEngine, type Interrupter } from './pglite-interrupt.ts';
import { pipelinedTransaction } from './pglite-transaction.ts';
import { processSettings } from '../config.ts';

// Values cross the WASM boundary as text and are parsed only where the JS type is lossless; the REST
// layer renders JSON inside Postgres (to_json), so these parsers serve only internal queries.
const parsers = {
  [types.INT8]: (v: string) => (Number.isSafeInteger(Number(v)) ? Number(v) : v),
  [types.NUMERIC]: (v: string) => v,
  [types.TIMESTAMPTZ]: (v: string) => v,
  [types.TIMESTAMP]: (v: string) => v,
  [types.DATE]: (v: string) => v,
};

type PGliteLike = Pick<PGlite, 'query' | 'exec'>;

const wrap = (db: PGliteLike): Queryable => ({
  async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    // The parsers are given once at create time; passing them per query rebuilds PGlite's table each time.
    const r = await db.query<R>(sql, params as unknown[]);
    return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows ?? 0 };
  },
  async exec(sql: string) {
    await db.exec(sql);
  },
});

export interface PGliteOptions {
  /** A directory for a persistent database, or undefined for one in memory. */
  dataDir?: string;
  /** A tarball of an initialised data directory to start from (see template.ts). */
  loadDataDir?: Blob;
}

// PGlite's engine (9 MB of WASM, ~50–130 ms to compile) starts compiling on V8's background threads
// when this module is first evaluated, so that the compile overlaps the rest of start-up.
// Node's global WebAssembly (this project's TypeScript lib declares only its types).
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly;
let engine: Promise<WebAssembly.Module | null> | null = null;
function pgliteEngine(): Promise<WebAssembly.Module | null> {
  engine ??= readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite')))
    .then((bytes) => wasm.compile(bytes))
    // Not found or not compilable here: PGlite loads the engine itself.
    .catch(() => null);
  return engine;
}
// With DATABASE_URL set, PGlite is not used (unless a caller opens one anyway: then it compiles then).
/** Whether DATABASE_URL is set (then PGlite is not used); an invalid configuration is reported by the stack. */
function databaseUrlSet(): boolean {
  try {
    return processSettings().DATABASE_URL !== undefined;
  } catch {
    return false;
  }
}
if (!databaseUrlSet()) {
  void pgliteEngine();
}

/**
 * Opens an existing database (a data directory, or a template's tarball) on the shared-memory engine, so
 * that statement time limits can be enforced (pglite-interrupt.ts). Never for a fresh directory: PGlite's
 * initdb step would run the shared module without its memory (createRawPGlite builds templates).
 */
export async function openPGlite(options: PGliteOptions = {}): Promise<Database> {
  // A fresh database (no data yet) runs initdb, which the shared engine cannot: the plain one, no limits.
  const existing =
    options.loadDataDir !== undefined ||
    (options.dataDir !== undefined && existsSync(path.join(options.dataDir, 'PG_VERSION')));
  const shared = existing ? await sharedEngine() : null;
  const pgliteWasmModule = shared?.module ?? (await pgliteEngine());
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    ...(shared ? { extensions: { sharedMemory: shared.extension } } : {}),
    parsers,
  });
  if (shared) {
    shareSideModules(db.Module.FS as never, shared.maximumPages);
  }
  const exported = db.Module as unknown as { _QueryCancelPending?: unknown; _InterruptPending?: unknown };
  const interrupter =
    shared &&
    typeof exported._QueryCancelPending === 'number' &&
    typeof exported._InterruptPending === 'number'
      ? createInterrupter(shared.memory, {
          queryCancelPending: exported._QueryCancelPending,
          interruptPending: exported._InterruptPending,
        })
      : null;
  if (existing && !interrupter) {
    console.warn('pglite: statement time limits cannot be enforced (no shared-memory engine)');
  }
  return fromPGlite(db, interrupter);
}

export function fromPGlite(db: PGlite, interrupter: Interrupter | null = null): Database {
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (fn, options) => pipelinedTransaction(db, fn, options, interrupter),
    async listen(channel, onNotify) {
      const unsubscribe = await db.listen(channel, onNotify);
      return () => unsubscribe();
    },
    async close() {
      await db.close();
      await interrupter?.close();
    },
  };
}

/** The raw PGlite handle, for building a template (see template.ts). */
export async function createRawPGlite(dataDir: string): Promise<PGlite> {
  return PGlite.create({ dataDir, parsers });
}
