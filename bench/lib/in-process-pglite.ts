import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../server/db/database.ts';
import { createPGlite } from '../../server/db/pglite-create.ts';
import { sharedEngine } from '../../server/db/pglite-interrupt.ts';

/**
 * A copy of a PGlite stack's database in a PGlite instance on this thread, on the same shared-memory engine:
 * the baseline "raw PGlite" was measured on before the engine moved to a thread of its own, so that the
 * REST layer's ratio keeps its meaning (what the stack adds to what PGlite itself costs).
 */
export async function inProcessCopy(db: Database): Promise<PGlite> {
  if (!('dumpDataDir' in db) || typeof db.dumpDataDir !== 'function') {
    throw new Error('the in-process baseline needs a PGlite stack');
  }
  const loadDataDir = (await (db.dumpDataDir as () => Promise<Uint8Array>)()).slice();
  const shared = await sharedEngine();
  const { db: copy } = await createPGlite({
    loadDataDir,
    module: shared?.module ?? null,
    memory: shared?.memory ?? null,
    maximumPages: shared?.maximumPages ?? 0,
  });
  return copy;
}
