import type { Queryable } from './database.ts';

/**
 * The statement time limit of each API role, as `alter role … set statement_timeout` gives it (Supabase:
 * anon 3 s, authenticated 8 s; server/db/platform/00-roles.sql), read the way PostgREST reads impersonated
 * role settings and applied to every request made as that role: on PostgreSQL through the request's own
 * `statement_timeout` setting, on PGlite by raising the engine's interrupt flags (pglite-interrupt.ts).
 */
const READ = `
select r.rolname as role, s.config
  from pg_catalog.pg_roles r
  cross join lateral (
    select c as config from pg_catalog.pg_db_role_setting d, unnest(d.setconfig) as c
     where d.setrole = r.oid and d.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
       and c like 'statement_timeout=%'
     order by d.setdatabase desc limit 1
  ) as s
 where r.rolname in ('anon', 'authenticated', 'service_role')`;

const UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** `statement_timeout` as Postgres accepts it ("3s", "8000", "1min"), in milliseconds; 0 means none. */
export function parseTimeout(value: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/.exec(value);
  return m ? Math.round(Number(m[1]) * UNITS[m[2] ?? 'ms']!) : null;
}

async function read(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ role: string; config: string }>(READ);
  const out = new Map<string, number>();
  for (const { role, config } of rows) {
    const ms = parseTimeout(config.slice('statement_timeout='.length));
    if (ms !== null) {
      out.set(role, ms);
    }
  }
  return out;
}

const loaded = new WeakMap<Queryable, Promise<Map<string, number>>>();

/** The limits of a database's API roles, read once and kept until reloadRoleTimeouts. */
function limits(db: Queryable): Promise<Map<string, number>> {
  let p = loaded.get(db);
  if (!p) {
    p = read(db);
    loaded.set(db, p);
    // A failed read is forgotten: the next request reads again.
    p.catch(() => loaded.delete(db));
  }
  return p;
}

/** The role's statement time limit in milliseconds; 0 when it has none (service_role). */
export async function statementTimeoutFor(db: Queryable, role: string): Promise<number> {
  return (await limits(db)).get(role) ?? 0;
}

/** Reads the limits again (after `alter role … set statement_timeout`; NOTIFY pgrst does it too). */
export async function reloadRoleTimeouts(db: Queryable): Promise<void> {
  loaded.delete(db);
  await limits(db);
}
