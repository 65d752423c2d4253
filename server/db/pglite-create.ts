import { PGlite, type Extension } from '@electric-sql/pglite';
import type { OpenRequest } from './pglite-engine-protocol.ts';
import type { InterruptFlags } from './pglite-interrupt.ts';
import { PARSERS } from './pglite-wire.ts';
import { shareSideModules } from './wasm-shared-memory.ts';

/**
 * Postgres's memory settings for one user on one machine. Postgres sizes its shared memory for a server
 * (128 MB of buffers, 100 connections), and PGlite zeroes all of it when it starts: that was 150 MB of the
 * stack's resident memory. A data file not in the buffers is read from the OS's file cache, a few
 * microseconds; PGlite's one backend needs no connection slots; memory the engine has touched stays the
 * process's (WebAssembly memory does not shrink), so no statement may take more than a few MB at once.
 */
export const ENGINE_SETTINGS = {
  shared_buffers: '16MB',
  max_connections: '8',
  // Locks are shared among the connection slots: a migration takes several per table it creates.
  max_locks_per_transaction: '256',
  maintenance_work_mem: '16MB',
  work_mem: '4MB',
} as const;

const startParams = () => [
  ...PGlite.defaultStartParams,
  ...Object.entries(ENGINE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

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
    startParams: startParams(),
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
