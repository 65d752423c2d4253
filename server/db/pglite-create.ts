import { PGlite, type Extension } from '@electric-sql/pglite';
import type { OpenRequest } from './pglite-engine-protocol.ts';
import type { InterruptFlags } from './pglite-interrupt.ts';
import { PARSERS } from './pglite-wire.ts';
import { shareSideModules } from './wasm-shared-memory.ts';

/**
 * Creates a PGlite instance as the engine's thread runs it (pglite-engine-worker.ts; the REST benchmark's
 * in-process baseline uses the same): on the shared memory when one is given, its side modules patched to
 * it, and the addresses of Postgres's interrupt flags there (null without a shared memory, or when the
 * module does not export them).
 */
export async function createPGlite(
  request: Omit<OpenRequest, 'op'>,
): Promise<{ db: PGlite; flags: InterruptFlags | null }> {
  const { memory } = request;
  // The emscripten runtime takes the shared memory as its own instead of creating one.
  const sharedMemory: Extension | null = memory && {
    name: 'vigil-shared-memory',
    setup: (_pg, emscriptenOpts: Record<string, unknown>) =>
      Promise.resolve({ emscriptenOpts: { ...emscriptenOpts, wasmMemory: memory } }),
  };
  const db = await PGlite.create({
    ...(request.dataDir ? { dataDir: request.dataDir } : {}),
    ...(request.loadDataDir ? { loadDataDir: new Blob([request.loadDataDir]) } : {}),
    ...(request.module ? { pgliteWasmModule: request.module } : {}),
    ...(sharedMemory ? { extensions: { sharedMemory } } : {}),
    parsers: PARSERS,
  });
  // EXPLAIN VERBOSE shows each statement's query identifier, as on Supabase's Postgres (which computes them
  // for pg_stat_statements); hashing a statement's tree costs microseconds.
  await db.exec('set compute_query_id = on');
  if (!memory) {
    return { db, flags: null };
  }
  // Emscripten's FS has no TypeScript type here; the part used is EmscriptenFs (wasm-shared-memory.ts).
  shareSideModules(db.Module.FS as never, request.maximumPages);
  const exported = db.Module as unknown as { _QueryCancelPending?: unknown; _InterruptPending?: unknown };
  const flags =
    typeof exported._QueryCancelPending === 'number' && typeof exported._InterruptPending === 'number'
      ? { queryCancelPending: exported._QueryCancelPending, interruptPending: exported._InterruptPending }
      : null;
  return { db, flags };
}
