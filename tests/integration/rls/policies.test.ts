// Row-level security at the SQL level, through runAs as PostgREST runs each request: every tenant table
// hides one customer's rows from another customer and from visitors, and refuses writes they may not make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import {
  anon,
  asUser,
  attempt,
  createUser,
  insertAs,
  insertSql,
  refused,
  schemaTargets,
  service,
  touched,
} from '../../helpers/db-roles.ts';

const PENTESTER_ROLE = 'a9e1c0de-0002-4000-8000-000000000002';

interface TenantTable {
  table: string;
  /** The owner column: user_id, or id for profiles. */
  owner: 'user_id' | 'id';
  /** A valid row for the owner, written by the service role; null when the sign-up trigger creates it. */
  row: Record<string, unknown> | null;
  /** A column and value a hostile update would try to set. */
  update: [string, unknown];
  /** What a customer may do to its own rows. */
  customer: { insert: boolean; update: boolean; delete: boolean };
}

const serviceOnly = { insert: false, update: false, delete: false };
const tables: TenantTable[] = [
  {
    table: 'profiles',
    owner: 'id',
    row: null,
    update: ['full_name', 'Mallory'],
    customer: { insert: false, update: true, delete: false },
  },
  {
    table: 'user_settings',
    owner: 'user_id',
    row: null,
    update: ['webhook_notifications', true],
    customer: { insert: true, update: true, delete: false },
  },
  {
    table: 'two_factor_auth',
    owner: 'user_id',
    row: { is_enabled: true, method: 'biometric' },
    update: ['is_enabled', false],
    customer: { insert: true, update: true, delete: false },
  },
  {
    table: 'ai_agents_status',
    owner: 'user_id',
    row: { agent_type: 'soc_analyzer' },
    update: ['is_active', true],
    customer: { insert: true, update: true, delete: false },
  },
  {
    table: 'monitoring_metrics',
    owner: 'user_id',
    row: { metric_name: 'page_load_ms', value: 12.5, metadata: { page: '/dashboard' } },
    update: ['value', 0],
    customer: { insert: true, update: false, delete: false },
  },
  {
    table: 'report_configurations',
    owner: 'user_id',
    row: { name: 'Weekly SOC 2', schedule_type: 'weekly' },
    update: ['is_enabled', false],
    customer: { insert: true, update: true, delete: true },
  },
  {
    table: 'subscriptions',
    owner: 'user_id',
    row: { status: 'trialing', provider_customer_id: 'cus_test' },
    update: ['status', 'active'],
    customer: serviceOnly,
  },
  {
    table: 'user_agent_subscriptions',
    owner: 'user_id',
    row: { agent_role_id: PENTESTER_ROLE, status: 'trialing' },
    update: ['status', 'active'],
    customer: serviceOnly,
  },
  {
    table: 'security_events',
    owner: 'user_id',
    row: { event_type: 'open_port', description: 'Telnet exposed', severity: 'high' },
    update: ['status', 'dismissed'],
    customer: serviceOnly,
  },
  {
    table: 'ml_insights',
    owner: 'user_id',
    row: { title: 'Rising', description: 'More alerts', insight_type: 'trend', confidence_score: 0.82 },
    update: ['confidence_score', 0],
    customer: serviceOnly,
  },
  {
    table: 'ai_security_recommendations',
    owner: 'user_id',
    row: { title: 'Add HSTS', description: 'Send HSTS', priority: 'high', category: 'web' },
    update: ['status', 'dismissed'],
    customer: serviceOnly,
  },
  {
    table: 'scan_results',
    owner: 'user_id',
    row: { scan_type: 'webapp', status: 'completed', severity_level: 'high', target: 'https://shop.example' },
    update: ['severity_level', 'none'],
    customer: serviceOnly,
  },
  {
    table: 'generated_reports',
    owner: 'user_id',
    row: { report_type: 'soc_compliance', status: 'completed', file_path: 'reports/a.pdf' },
    update: ['file_path', 'x.pdf'],
    customer: serviceOnly,
  },
  {
    table: 'security_tool_configurations',
    owner: 'user_id',
    row: { tool_type: 'webapp', enabled: true, connection_status: 'connected' },
    update: ['enabled', false],
    customer: serviceOnly,
  },
  {
    table: 'application_logs',
    owner: 'user_id',
    row: { level: 'error', message: 'boom', context: { at: 'test' } },
    update: ['message', 'forged'],
    customer: serviceOnly,
  },
];

describe.each(schemaTargets())('row-level security on $name', ({ open }) => {
  let db: Database;
  let alice: string;
  let bob: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    db = await open();
    alice = await createUser(db, { full_name: 'Alice', company_name: 'Acme', industry_type: 'Technology' });
    bob = await createUser(db, { full_name: 'Bob', company_name: 'Bobco', industry_type: 'Retail' });
    for (const t of tables) {
      if (t.row) {
        // The service role bypasses RLS: this is how the agents and webhooks write.
        const row = await insertAs(db, service, t.table, { ...t.row, user_id: alice });
        ids.set(t.table, row.id as string);
      } else {
        const { rows } = await db.query<{ id: string }>(
          `select id from public.${t.table} where ${t.owner} = $1`,
          [alice],
        );
        ids.set(t.table, rows[0]!.id);
      }
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it('enables row-level security on every table in public and grants no one TRUNCATE', async () => {
    const { rows } = await db.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
    const truncate = await db.query(
      `select table_name, grantee from information_schema.role_table_grants
        where table_schema = 'public' and privilege_type = 'TRUNCATE' and grantee in ('anon', 'authenticated')`,
    );
    expect(truncate.rows).toEqual([]);
  });

  describe.each(tables)('$table', (t) => {
    const rowId = () => ids.get(t.table)!;
    const [col, value] = t.update;
    const select = `select * from public.${t.table} where id = $1`;
    const update = `update public.${t.table} set "${col}" = $2 where id = $1`;
    const del = `delete from public.${t.table} where id = $1`;

    it('shows the owner its row and nobody else', async () => {
      expect(await attempt(db, asUser(alice), (tx) => tx.query(select, [rowId()]))).toEqual(touched(1));
      expect(await attempt(db, asUser(bob), (tx) => tx.query(select, [rowId()]))).toEqual(touched(0));
      expect(await attempt(db, asUser(bob), (tx) => tx.query(`select * from public.${t.table}`))).toEqual(
        touched(t.table === 'profiles' || t.table === 'user_settings' ? 1 : 0),
      );
      expect(await attempt(db, anon, (tx) => tx.query(select, [rowId()]))).toEqual(refused());
    });

    it("refuses another customer's and a visitor's writes", async () => {
      const hostile = asUser(bob);
      // A write the customer may make on its own rows matches none of someone else's; any other is refused.
      expect(await attempt(db, hostile, (tx) => tx.query(update, [rowId(), value]))).toEqual(
        t.customer.update ? touched(0) : refused(),
      );
      expect(await attempt(db, hostile, (tx) => tx.query(del, [rowId()]))).toEqual(
        t.customer.delete ? touched(0) : refused(),
      );
      expect(await attempt(db, anon, (tx) => tx.query(update, [rowId(), value]))).toEqual(refused());
      expect(await attempt(db, anon, (tx) => tx.query(del, [rowId()]))).toEqual(refused());
      const planted = { ...(t.row ?? {}), [t.owner]: alice };
      const [sql, params] = insertSql(t.table, planted);
      expect(await attempt(db, hostile, (tx) => tx.query(sql, params))).toEqual(refused());
      expect(await attempt(db, anon, (tx) => tx.query(sql, params))).toEqual(refused());
      const after = await db.query(select, [rowId()]);
      expect(after.rows).toHaveLength(1);
      expect((after.rows[0] as Record<string, unknown>)[col]).not.toEqual(value);
    });

    if (t.customer.update) {
      it('lets the owner update its own row', async () => {
        expect(await attempt(db, asUser(alice), (tx) => tx.query(update, [rowId(), value]))).toEqual(
          touched(1),
        );
        // Handing the row to someone else is refused by the grant or the policy's check.
        const steal = `update public.${t.table} set ${t.owner} = $2 where id = $1`;
        expect(await attempt(db, asUser(alice), (tx) => tx.query(steal, [rowId(), bob]))).toEqual(refused());
      });
    }

    if (!t.customer.insert && !t.customer.update && !t.customer.delete) {
      it('is written only by the service role: the owner itself is refused', async () => {
        const [sql, params] = insertSql(t.table, { ...t.row, user_id: alice });
        expect(await attempt(db, asUser(alice), (tx) => tx.query(sql, params))).toEqual(refused());
        expect(await attempt(db, asUser(alice), (tx) => tx.query(update, [rowId(), value]))).toEqual(
          refused(),
        );
        expect(await attempt(db, asUser(alice), (tx) => tx.query(del, [rowId()]))).toEqual(refused());
        expect(await attempt(db, service, (tx) => tx.query(update, [rowId(), value]))).toEqual(touched(1));
      });
    }
  });

  it("deletes a user's rows with the user", async () => {
    const carol = await createUser(db, { full_name: 'Carol' });
    await insertAs(db, service, 'security_events', {
      user_id: carol,
      event_type: 'x',
      description: 'y',
      severity: 'low',
    });
    await db.query('delete from auth.users where id = $1', [carol]);
    const { rows } = await db.query(
      `select (select count(*) from public.profiles where id = $1) + (select count(*) from public.security_events where user_id = $1)
       + (select count(*) from public.user_settings where user_id = $1) as n`,
      [carol],
    );
    expect(Number((rows[0] as { n: number | string }).n)).toBe(0);
  });
});
