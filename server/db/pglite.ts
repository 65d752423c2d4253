import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './database.ts';
import { PGliteClient } from './pglite-client.ts';
import { PGliteEngine, prestartEngineThread } from './pglite-engine.ts';
import { createInterrupter, sharedEngine } from './pglite-interrupt.ts';
import { pipelinedTransaction } from './pglite-transaction.ts';
import { nodeWasm, pgliteWanted, readPgliteWasm } from './pglite-wasm.ts';

export interface PGliteOptions {
  /** A directory for a persistent database, or undefined for one in memory. */
  dataDir?: string;
  /** A tarball of an initialised data directory to start from (see template.ts). */
  loadDataDir?: Uint8Array;
}

/** The stack's Database on PGlite, plus what building a template needs. */
export interface PGliteDatabase extends Database {
  /** A tarball of the data directory (uncompressed). */
  dumpDataDir(): Promise<Uint8Array>;
}

// PGlite's engine as it comes (9 MB of WASM), compiled on first use: only a fresh data directory needs it
// (initdb, when template.ts builds a template). Every existing database runs on the shared-memory engine
// (pglite-interrupt.ts), which starts compiling when that module is evaluated, overlapping the rest of
// start-up; a second compiled copy of the engine would cost the process its code for nothing. The engine's
// thread starts early too (pglite-engine.ts). A compiled module is handed to that thread as it is.
let engine: Promise<WebAssembly.Module | null> | null = null;
function pgliteEngine(): Promise<WebAssembly.Module | null> {
  engine ??= readPgliteWasm()
    .then((bytes) => nodeWasm.compile(bytes))
    // Not found or not compilable here: PGlite loads the engine itself.
    .catch(() => null);
  return engine;
}
// With DATABASE_URL set, PGlite is not used (unless a caller opens one anyway: then it starts then).
if (pgliteWanted()) {
  prestartEngineThread();
}

/**
 * Opens PGlite on its own thread. An existing database (a data directory, or a template's tarball) runs on
 * the shared-memory engine, so that statement time limits can be enforced (pglite-interrupt.ts); a fresh
 * directory runs initdb first, which the shared engine cannot (template.ts builds templates that way).
 */
export async function openPGlite(options: PGliteOptions = {}): Promise<PGliteDatabase> {
  const existing =
    options.loadDataDir !== undefined ||
    (options.dataDir !== undefined && existsSync(path.join(options.dataDir, 'PG_VERSION')));
  const shared = existing ? await sharedEngine() : null;
  const { engine, flags } = await PGliteEngine.open({
    op: 'open',
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    module: shared ? shared.module : await pgliteEngine(),
    memory: shared?.memory ?? null,
    maximumPages: shared?.maximumPages ?? 0,
  });
  const interrupter = shared && flags ? createInterrupter(shared.memory, flags) : null;
  if (existing && !interrupter) {
    console.warn('pglite: statement time limits cannot be enforced (no shared-memory engine)');
  }
  const client = new PGliteClient(engine, interrupter);
  try {
    await client.loadArrayTypes();
  } catch (e) {
    await client.close().catch(() => undefined);
    throw e;
  }
  return {
    kind: 'pglite',
    query: (sql, params) => client.query(sql, params),
    exec: (sql) => client.exec(sql),
    transaction: (fn, transactionOptions) => pipelinedTransaction(client, fn, transactionOptions),
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: () => client.close(),
    dumpDataDir: () => client.dump(),
    memory: async () => {
      const engine = await client.memory();
      return engine ? [engine] : [];
    },
  };
}
