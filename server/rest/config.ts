import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { CONFIG_TOML } from '../auth/settings.ts';
import type { Queryable } from '../db/database.ts';

/**
 * The REST settings PostgREST reads (Config.hs): `db-schemas` from supabase/config.toml's `[api] schemas`
 * (what the Supabase CLI gives PostgREST), and PostgREST's in-database configuration, which wins: settings
 * of the `authenticator` role, e.g.
 *   alter role authenticator set pgrst.db_aggregates_enabled = 'true'; notify pgrst, 'reload config';
 * which is how a hosted Supabase project turns aggregates or `Accept: application/vnd.pgrst.plan` on.
 */
export interface RestConfig {
  /** Exposed schemas; the first is the default of a request without a profile header. */
  schemas: string[];
  aggregatesEnabled: boolean;
  planEnabled: boolean;
}

const ApiToml = z
  .object({
    api: z
      .object({ schemas: z.array(z.string().min(1)).min(1).optional() })
      .loose()
      .optional(),
  })
  .loose();

/** `[api] schemas` of supabase/config.toml; PostgREST's default (public) when it says nothing. */
export function schemasFromToml(file = CONFIG_TOML): string[] {
  const parsed = ApiToml.safeParse(parseToml(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`${file}: [api] schemas must be a list of schema names`);
  }
  return parsed.data.api?.schemas ?? ['public'];
}

// Database-specific settings first, as PostgREST orders them (ALTER ROLE … IN DATABASE wins).
const READ = `
select distinct on (k) k, v from (
  select substr(s, 1, strpos(s, '=') - 1) as k, substr(s, strpos(s, '=') + 1) as v, d.setdatabase
    from pg_catalog.pg_db_role_setting d, unnest(d.setconfig) as s
   where d.setrole = (select oid from pg_catalog.pg_roles where rolname = 'authenticator')
     and d.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
) settings where k like 'pgrst.%' order by k, setdatabase desc`;

/** PostgREST's boolean spelling: true/false, on/off, yes/no, 1/0 in any case. */
const truthy = (v: string | undefined, fallback: boolean) =>
  v === undefined ? fallback : ['true', 'on', 'yes', '1'].includes(v.trim().toLowerCase());

export async function readRestConfig(db: Queryable, tomlSchemas = schemasFromToml()): Promise<RestConfig> {
  const { rows } = await db.query<{ k: string; v: string }>(READ);
  const setting = new Map(rows.map((r) => [r.k.slice('pgrst.'.length), r.v]));
  const schemas = setting
    .get('db_schemas')
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return {
    schemas: schemas && schemas.length > 0 ? schemas : tomlSchemas,
    aggregatesEnabled: truthy(setting.get('db_aggregates_enabled'), false),
    planEnabled: truthy(setting.get('db_plan_enabled'), false),
  };
}
