// The platform bootstrap, migrations and seed on a real PostgreSQL server (scripts/test-postgres.sh starts
// a throwaway PostgreSQL 15 and sets VIGIL_TEST_DATABASE_URL). Each run uses a database of its own.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { loadSchemaSources } from '../../../server/db/migrate.ts';
import { openDatabase } from '../../../server/db/open.ts';
import { inStage, requires } from '../../helpers/requirements.ts';

const serverUrl = process.env.VIGIL_TEST_DATABASE_URL;

const TABLES = [
  'agent_roles',
  'ai_agents_status',
  'ai_security_recommendations',
  'application_logs',
  'generated_reports',
  'ml_insights',
  'monitoring_metrics',
  'pricing_plans',
  'profiles',
  'report_configurations',
  'scan_results',
  'security_events',
  'security_tool_configurations',
  'subscriptions',
  'two_factor_auth',
  'user_agent_subscriptions',
  'user_settings',
];
const REALTIME = [
  'generated_reports',
  'scan_results',
  'security_events',
  'subscriptions',
  'user_agent_subscriptions',
];

/** Everything a second apply must leave as it was. */
const FINGERPRINT = `select json_build_object(
  'migrations', (select json_agg(version order by version) from supabase_migrations.schema_migrations),
  'tables', (select json_agg(relname order by relname) from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'),
  'policies', (select json_agg(policyname order by tablename, policyname) from pg_policies where schemaname = 'public'),
  'roles', (select json_agg(json_build_array(id, updated_at) order by id) from public.agent_roles),
  'plans', (select json_agg(json_build_array(id, updated_at) order by id) from public.pricing_plans),
  'seeded', (select json_agg(seeded_at) from vigil_platform.seeded)
)::text as fp`;

describe(
  'migrations on PostgreSQL',
  requires(serverUrl ? null : inStage('postgres', 'needs a PostgreSQL server (VIGIL_TEST_DATABASE_URL)')),
  () => {
    const name = `vigil_migrations_${randomUUID().replaceAll('-', '')}`;
    const url = new URL(serverUrl ?? 'postgres://invalid');
    url.pathname = `/${name}`;
    let admin: pg.Client;
    let db: Database;

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      db = await openDatabase({ dataDir: 'memory', databaseUrl: url.href });
    });
    afterAll(async () => {
      await db?.close();
      await admin?.query(`drop database if exists ${name}`);
      await admin?.end();
    });

    it('runs on PostgreSQL 15 or newer', async () => {
      const { rows } = await db.query<{ v: string }>(`select current_setting('server_version_num') as v`);
      expect(Number(rows[0]!.v)).toBeGreaterThanOrEqual(150000);
    });

    it('records every migration file, as the Supabase CLI does', async () => {
      const { migrations } = await loadSchemaSources();
      const { rows } = await db.query<{ name: string }>(
        'select name from supabase_migrations.schema_migrations order by version',
      );
      expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
    });

    it('creates every table with row-level security enabled, and a policy wherever a customer has access', async () => {
      const { rows } = await db.query<{
        relname: string;
        rls: boolean;
        policies: number;
        api_access: boolean;
      }>(
        `select c.relname, c.relrowsecurity as rls,
              (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname) as policies,
              (select bool_or(has_table_privilege(r, c.oid, 'select,insert,update,delete'))
                 from unnest(array['anon', 'authenticated']) as r) as api_access
         from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by c.relname`,
      );
      expect(rows.map((r) => r.relname)).toEqual(expect.arrayContaining(TABLES));
      for (const r of rows) {
        expect(r, r.relname).toMatchObject({ rls: true });
        // A table without a policy is service-only: the API roles must then hold no privilege on it either.
        if (r.policies === 0) {
          expect(r.api_access, `${r.relname} has no policy but grants access`).toBe(false);
        }
      }
    });

    it('seeds the agent catalogue with the prices of docs/product.md §9, and the plans', async () => {
      const { rows } = await db.query<{ role_type: string; price_monthly: number; features: number }>(
        'select role_type, price_monthly, cardinality(features) as features from public.agent_roles order by display_order',
      );
      expect(rows.map((r) => [r.role_type, r.price_monthly])).toEqual([
        ['cybersecurity_analyst', 29900],
        ['penetration_tester', 39900],
        ['incident_response', 34900],
        ['forensics_investigator', 44900],
        ['threat_intelligence', 29900],
        ['application_security', 39900],
        ['cloud_security', 39900],
      ]);
      expect(rows.every((r) => r.features >= 4)).toBe(true);
      const plans = await db.query('select tier from public.pricing_plans order by price_monthly');
      expect(plans.rows).toEqual([{ tier: 'starter' }, { tier: 'professional' }, { tier: 'enterprise' }]);
    });

    it('publishes the live tables to realtime with full replica identity', async () => {
      const { rows } = await db.query<{ tablename: string; identity: string }>(
        `select p.tablename, c.relreplident as identity from pg_publication_tables p
         join pg_class c on c.relname = p.tablename and c.relnamespace = 'public'::regnamespace
        where p.pubname = 'supabase_realtime' and p.schemaname = 'public' order by p.tablename`,
      );
      expect(rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(REALTIME));
      for (const r of rows) {
        expect(r, r.tablename).toMatchObject({ identity: 'f' });
      }
    });

    it('changes nothing when applied again, and the seed is idempotent on its own', async () => {
      const before = (await db.query<{ fp: string }>(FINGERPRINT)).rows[0]!.fp;
      await db.close();
      db = await openDatabase({ dataDir: 'memory', databaseUrl: url.href });
      expect((await db.query<{ fp: string }>(FINGERPRINT)).rows[0]!.fp).toBe(before);
      const { seed } = await loadSchemaSources();
      await db.exec(seed!.sql);
      expect((await db.query<{ fp: string }>(FINGERPRINT)).rows[0]!.fp).toBe(before);
    });
  },
);
