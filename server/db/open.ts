import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './database.ts';
import { applySchema, loadSchemaSources } from './migrate.ts';
import { openPGlite } from './pglite.ts';
import { copyTemplateTo, templateTarball } from './template.ts';

export interface DatabaseTarget {
  /** PostgreSQL connection string; when set, PGlite is not used. */
  databaseUrl?: string | undefined;
  /** 'memory' for an in-memory database, or the stack's data directory. */
  dataDir: string;
}

/** Opens the stack's database and brings it up to date (platform bootstrap, migrations, seed). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const sources = await loadSchemaSources();
  if (target.databaseUrl) {
    // node-postgres loads only when the stack runs on PostgreSQL.
    const { openPostgres } = await import('./postgres.ts');
    const db = await openPostgres(target.databaseUrl);
    await applySchema(db, sources);
    return db;
  }
  if (target.dataDir === 'memory') {
    return openPGlite({ loadDataDir: await templateTarball(sources) });
  }
  const pgdata = path.join(target.dataDir, 'pgdata');
  const fresh = !existsSync(pgdata) || readdirSync(pgdata).length === 0;
  if (fresh) {
    await mkdir(path.dirname(pgdata), { recursive: true });
    await copyTemplateTo(sources, pgdata);
  }
  const db = await openPGlite({ dataDir: pgdata });
  // An existing data dir may predate newer migrations (a fresh copy is already current: a no-op).
  await applySchema(db, sources);
  // Read before anything else can write: caches validated against it must describe this exact state.
  const { rows } = await db.query<{ hash: string; xmax: string }>(
    'select hash, pg_snapshot_xmax(pg_current_snapshot())::text as xmax from vigil_platform.schema_state',
  );
  const state = rows[0];
  return state
    ? { ...db, openState: { dataDir: target.dataDir, schemaHash: state.hash, xmax: state.xmax } }
    : db;
}
