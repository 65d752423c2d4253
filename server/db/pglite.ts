import { readFile } from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.ts';
import { pipelinedTransaction } from './pglite-transaction.ts';

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
if (!process.env.DATABASE_URL) {
  void pgliteEngine();
}

export async function openPGlite(options: PGliteOptions = {}): Promise<Database> {
  const pgliteWasmModule = await pgliteEngine();
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    parsers,
  });
  return fromPGlite(db);
}

export function fromPGlite(db: PGlite): Database {
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (fn, options) => pipelinedTransaction(db, fn, options),
    async listen(channel, onNotify) {
      const unsubscribe = await db.listen(channel, onNotify);
      return () => unsubscribe();
    },
    close: () => db.close(),
  };
}

/** The raw PGlite handle, for building a template (see template.ts). */
export async function createRawPGlite(dataDir: string): Promise<PGlite> {
  return PGlite.create({ dataDir, parsers });
}
