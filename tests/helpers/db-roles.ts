import { randomUUID } from 'node:crypto';
import { runAs } from '../../server/db/as-role.ts';
import { isPgError, type Database, type Queryable } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open.ts';
import type { RequestRole } from '../../server/http/request-role.ts';

/**
 * The database a schema suite runs on: PGlite, or the PostgreSQL server VIGIL_TEST_DATABASE_URL names
 * (scripts/test-postgres.sh), so the same assertions hold on both engines.
 */
export function schemaTargets(): { name: string; open: () => Promise<Database> }[] {
  const url = process.env.VIGIL_TEST_DATABASE_URL;
  if (url) {
    return [{ name: 'PostgreSQL', open: () => openDatabase({ dataDir: 'memory', databaseUrl: url }) }];
  }
  return [{ name: 'PGlite', open: () => openDatabase({ dataDir: 'memory' }) }];
}

export const anon: RequestRole = { role: 'anon', claims: { role: 'anon' }, accessToken: null };
export const service: RequestRole = {
  role: 'service_role',
  claims: { role: 'service_role' },
  accessToken: null,
};
export const asUser = (id: string): RequestRole => ({
  role: 'authenticated',
  claims: { sub: id, role: 'authenticated', aud: 'authenticated' },
  accessToken: null,
});

/** Creates an auth user the way GoTrue does (the sign-up trigger runs) and returns its id. */
export async function createUser(db: Database, meta: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  await db.query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3::jsonb)`, [
    id,
    `${id}@example.test`,
    JSON.stringify(meta),
  ]);
  return id;
}

type Values = Record<string, unknown>;

const param = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

/** insert … returning *, with the values as parameters (objects as JSON). Table and column names are the test's own. */
export function insertSql(table: string, values: Values): [string, unknown[]] {
  const cols = Object.keys(values);
  const sql = `insert into public.${table} (${cols.map((c) => `"${c}"`).join(', ')})
    values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning *`;
  return [sql, Object.values(values).map(param)];
}

export async function insertAs(
  db: Database,
  who: RequestRole,
  table: string,
  values: Values,
): Promise<Values> {
  const [sql, params] = insertSql(table, values);
  const { rows } = await runAs(db, who, (tx) => tx.query<Values>(sql, params));
  return rows[0]!;
}

/** What a statement did: the rows it touched or returned, or the SQLSTATE it failed with. */
export type Outcome = { ok: true; rows: number } | { ok: false; code: string };

export async function attempt(
  db: Database,
  who: RequestRole,
  fn: (tx: Queryable) => Promise<unknown>,
): Promise<Outcome> {
  try {
    const r = (await runAs(db, who, fn)) as { rows: unknown[]; affectedRows: number };
    return { ok: true, rows: Math.max(r.affectedRows, r.rows.length) };
  } catch (e) {
    if (isPgError(e)) {
      return { ok: false, code: e.code };
    }
    throw e;
  }
}

export const refused = (code = '42501'): Outcome => ({ ok: false, code });
export const touched = (rows: number): Outcome => ({ ok: true, rows });
