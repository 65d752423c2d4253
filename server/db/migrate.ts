import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isPgError, type Queryable } from './database.ts';

/** One SQL file to apply: the platform bootstrap, a migration or the seed. */
export interface SqlFile {
  name: string;
  sql: string;
}

export interface SchemaSources {
  /** What Supabase itself provides (roles, auth, storage, realtime publication): server/db/platform. */
  platform: SqlFile[];
  /** supabase/migrations/*.sql, in timestamp order, applied unchanged. */
  migrations: SqlFile[];
  /** supabase/seed.sql, applied once. */
  seed: SqlFile | null;
}

const root = path.resolve(import.meta.dirname, '../..');
export const PLATFORM_DIR = path.join(root, 'server/db/platform');
export const MIGRATIONS_DIR = path.join(root, 'supabase/migrations');
export const SEED_FILE = path.join(root, 'supabase/seed.sql');

async function readSqlDir(dir: string): Promise<SqlFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => ({ name, sql: await readFile(path.join(dir, name), 'utf8') })),
  );
}

export async function loadSchemaSources(): Promise<SchemaSources> {
  const seedSql = await readFile(SEED_FILE, 'utf8').catch(() => null);
  return {
    platform: await readSqlDir(PLATFORM_DIR),
    migrations: await readSqlDir(MIGRATIONS_DIR),
    seed: seedSql === null ? null : { name: 'seed.sql', sql: seedSql },
  };
}

/** A hash of everything that shapes the schema: a template built from other sources is never reused. */
export function schemaHash(sources: SchemaSources): string {
  const h = createHash('sha256');
  for (const f of [...sources.platform, ...sources.migrations, ...(sources.seed ? [sources.seed] : [])]) {
    h.update(f.name).update('\0').update(f.sql).update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

const LEDGER = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (version text primary key, name text, statements text[]);
create schema if not exists vigil_platform;
create table if not exists vigil_platform.applied (name text primary key, hash text not null, applied_at timestamptz not null default now());
create table if not exists vigil_platform.seeded (id boolean primary key default true, seeded_at timestamptz not null default now());
create table if not exists vigil_platform.schema_state (id boolean primary key default true check (id), hash text not null, applied_at timestamptz not null default now());
`;

/**
 * Whether the database was last brought up to date from exactly these sources (their schemaHash), so
 * that a start with an unchanged schema costs one query instead of the ledger's checks.
 */
async function upToDate(db: Queryable, hash: string): Promise<boolean> {
  try {
    const { rows } = await db.query<{ hash: string }>('select hash from vigil_platform.schema_state');
    return rows[0]?.hash === hash;
  } catch (e) {
    // A database from before this record (or a new one) has no such table yet: check the ledger.
    if (isPgError(e) && e.code === '42P01') {
      return false;
    }
    throw e;
  }
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Brings a database up to date: platform files (re-applied when their content changes; they are written
 * to be idempotent), then each migration not yet recorded (as the Supabase CLI records them), then the
 * seed once. Each file runs in its own transaction so a failure names the file and leaves no half-state.
 */
export async function applySchema(
  db: Queryable & { transaction?: unknown },
  sources: SchemaSources,
): Promise<void> {
  const sourcesHash = schemaHash(sources);
  if (await upToDate(db, sourcesHash)) {
    return;
  }
  await db.exec(LEDGER);
  const applied = new Map(
    (
      await db.query<{ name: string; hash: string }>('select name, hash from vigil_platform.applied')
    ).rows.map((r) => [r.name, r.hash]),
  );
  for (const f of sources.platform) {
    const hash = sha(f.sql);
    if (applied.get(f.name) === hash) {
      continue;
    }
    await runFile(
      db,
      f,
      `insert into vigil_platform.applied(name, hash) values (${lit(f.name)}, ${lit(hash)})
      on conflict (name) do update set hash = excluded.hash, applied_at = now();`,
    );
  }
  const done = new Set(
    (
      await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')
    ).rows.map((r) => r.version),
  );
  for (const f of sources.migrations) {
    const version = f.name.split('_')[0] ?? f.name;
    if (done.has(version)) {
      continue;
    }
    await runFile(
      db,
      f,
      `insert into supabase_migrations.schema_migrations(version, name) values (${lit(version)}, ${lit(f.name)});`,
    );
  }
  const seeded = await db.query('select 1 from vigil_platform.seeded');
  if (sources.seed && seeded.rows.length === 0) {
    await runFile(db, sources.seed, 'insert into vigil_platform.seeded default values;');
  }
  await db.query(
    `insert into vigil_platform.schema_state (hash) values ($1)
     on conflict (id) do update set hash = excluded.hash, applied_at = now()`,
    [sourcesHash],
  );
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function runFile(db: Queryable, f: SqlFile, record: string): Promise<void> {
  try {
    await db.exec(`begin;\n${f.sql}\n;${record}\ncommit;`);
  } catch (e) {
    await db.exec('rollback').catch(() => undefined);
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`Applying ${f.name} failed: ${message}`, { cause: e });
  }
}
