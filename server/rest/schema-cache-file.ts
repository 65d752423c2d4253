import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Database, OpenState } from '../db/database.ts';
import { INTROSPECT_ALL_SQL } from './schema-introspect.sql.ts';

/**
 * The REST schema introspection (~100–450 ms on PGlite at start-up) kept in the data directory between
 * runs. A saved copy is used only for the exact database state it was read from: the same schema hash
 * (vigil_platform.schema_state) and the same next transaction id. Every change since — DDL at run time
 * (tests creating tables, a function that creates one), a migration, any write — assigns a transaction
 * id, so the copy no longer matches and the schema is introspected again. It is saved at a clean close.
 */
const FILE_NAME = 'rest-schema-cache.json';

const saved = z.object({
  version: z.literal(2),
  schema: z.string(),
  schemaHash: z.string(),
  xmax: z.string(),
  introspection: z.string(),
});

const fileOf = (state: OpenState) => path.join(state.dataDir, FILE_NAME);

async function readSaved(state: OpenState) {
  try {
    return saved.parse(JSON.parse(await readFile(fileOf(state), 'utf8')));
  } catch {
    // Missing, unreadable or from another version: introspect instead.
    return null;
  }
}

/** The saved introspection (schema → JSON) when it describes the database exactly as it opened; otherwise null. */
export async function restoredIntrospection(
  db: Database,
  schemas: readonly string[],
): Promise<Map<string, string> | null> {
  const schema = schemas.join(',');
  const state = db.openState;
  if (!state) {
    return null;
  }
  const file = await readSaved(state);
  // Same schema sources and no transaction since the copy was read: the catalog is the same.
  if (!file || file.schema !== schema || file.schemaHash !== state.schemaHash || file.xmax !== state.xmax) {
    return null;
  }
  return new Map(Object.entries(z.record(z.string(), z.string()).parse(JSON.parse(file.introspection))));
}

/**
 * Saves the introspection for the next start; call last before closing the database. Nothing else may
 * write in between, or the saved xmax will not match and the copy is simply not used.
 */
export async function saveIntrospection(db: Database, schemas: readonly string[]): Promise<void> {
  const schema = schemas.join(',');
  const state = db.openState;
  if (!state) {
    return;
  }
  const current = await db.query<{ hash: string; xmax: string }>(
    'select hash, pg_snapshot_xmax(pg_current_snapshot())::text as xmax from vigil_platform.schema_state',
  );
  const now = current.rows[0];
  const file = await readSaved(state);
  // Nothing changed since the copy on disk was read (a run without writes): keep it.
  if (!now || (file && file.schema === schema && file.schemaHash === now.hash && file.xmax === now.xmax)) {
    return;
  }
  // One statement, one snapshot: the introspection and the xmax it is valid for cannot disagree.
  const { rows } = await db.query<{ cache: string; xmax: string; hash: string }>(
    `select coalesce(json_object_agg(i.schema, i.cache), '{}')::text as cache,
       pg_snapshot_xmax(pg_current_snapshot())::text as xmax,
       (select hash from vigil_platform.schema_state) as hash from (${INTROSPECT_ALL_SQL}) i`,
    [schemas],
  );
  const row = rows[0];
  if (!row) {
    return;
  }
  const body: z.infer<typeof saved> = {
    version: 2,
    schema,
    schemaHash: row.hash,
    xmax: row.xmax,
    introspection: row.cache,
  };
  // Written aside and renamed: a crash mid-write must not leave half a file.
  const tmp = `${fileOf(state)}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
  await rename(tmp, fileOf(state));
}
