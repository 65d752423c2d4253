// What customers may write (the writes of docs/product.md §7.2), the public catalogue, and the sign-up trigger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import {
  anon,
  asUser,
  attempt,
  createUser,
  refused,
  schemaTargets,
  service,
  touched,
} from '../../helpers/db-roles.ts';

describe.each(schemaTargets())('customer writes on $name', ({ open }) => {
  let db: Database;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    db = await open();
    alice = await createUser(db, {
      full_name: '  Alice Liddell ',
      company_name: 'Acme',
      industry_type: 'Financial Services',
    });
    bob = await createUser(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates a profile from the sign-up metadata and default settings', async () => {
    const { rows } = await db.query(
      'select full_name, company_name, industry_type from public.profiles where id = $1',
      [alice],
    );
    expect(rows).toEqual([
      { full_name: 'Alice Liddell', company_name: 'Acme', industry_type: 'financial_services' },
    ]);
    const settings = await db.query(
      `select email_notifications, realtime_alerts, automatic_remediation, webhook_notifications, webhook_url
         from public.user_settings where user_id = $1`,
      [alice],
    );
    expect(settings.rows).toEqual([
      {
        email_notifications: true,
        realtime_alerts: true,
        automatic_remediation: false,
        webhook_notifications: false,
        webhook_url: null,
      },
    ]);
  });

  it('signs up a user whose metadata is missing or hostile, storing no unknown industry', async () => {
    const id = await createUser(db, { industry_type: "x'); drop table public.profiles; --", full_name: 42 });
    const { rows } = await db.query('select full_name, industry_type from public.profiles where id = $1', [
      id,
    ]);
    expect(rows).toEqual([{ full_name: '42', industry_type: null }]);
    expect((await db.query('select full_name from public.profiles where id = $1', [bob])).rows).toEqual([
      { full_name: null },
    ]);
  });

  it('lets the owner edit its profile but not its id, and never insert or delete one', async () => {
    const me = asUser(alice);
    expect(
      await attempt(db, me, (tx) =>
        tx.query(`update public.profiles set company_name = 'Acme Ltd' where id = $1`, [alice]),
      ),
    ).toEqual(touched(1));
    expect(
      await attempt(db, me, (tx) =>
        tx.query(`update public.profiles set id = $2 where id = $1`, [alice, bob]),
      ),
    ).toEqual(refused());
    expect(
      await attempt(db, me, (tx) => tx.query(`delete from public.profiles where id = $1`, [alice])),
    ).toEqual(refused());
    expect(
      await attempt(db, me, (tx) => tx.query(`insert into public.profiles (id) values ($1)`, [alice])),
    ).toEqual(refused());
  });

  it('creates, toggles and deletes own report configurations; the schedule columns stay the scheduler’s', async () => {
    const me = asUser(alice);
    const created = await attempt(db, me, (tx) =>
      tx.query(`insert into public.report_configurations (name, description, report_type, schedule_type, is_enabled)
                values ('Monthly pentest', null, 'penetration_test', 'monthly', true) returning user_id`),
    );
    expect(created).toEqual(touched(1));
    const { rows } = await db.query<{ id: string; user_id: string }>(
      `select id, user_id from public.report_configurations where name = 'Monthly pentest'`,
    );
    expect(rows[0]!.user_id).toBe(alice);
    const id = rows[0]!.id;
    expect(
      await attempt(db, me, (tx) =>
        tx.query('update public.report_configurations set is_enabled = false where id = $1', [id]),
      ),
    ).toEqual(touched(1));
    expect(
      await attempt(db, me, (tx) =>
        tx.query('update public.report_configurations set next_run_at = now() where id = $1', [id]),
      ),
    ).toEqual(refused());
    expect(
      await attempt(db, me, (tx) =>
        tx.query('update public.report_configurations set user_id = $2 where id = $1', [id, bob]),
      ),
    ).toEqual(refused());
    expect(
      await attempt(db, me, (tx) => tx.query('delete from public.report_configurations where id = $1', [id])),
    ).toEqual(touched(1));
  });

  it('inserts metric batches for the owner only and never rewrites them', async () => {
    const me = asUser(alice);
    const batch = `insert into public.monitoring_metrics (metric_name, value, metadata)
                   values ('api_latency_ms', 12, '{}'), ('api_latency_ms', 15, '{}'), ('errors', 0, '{"page":"/"}')`;
    expect(await attempt(db, me, (tx) => tx.query(batch))).toEqual(touched(3));
    expect(await attempt(db, me, (tx) => tx.query('update public.monitoring_metrics set value = 0'))).toEqual(
      refused(),
    );
    expect(await attempt(db, me, (tx) => tx.query('delete from public.monitoring_metrics'))).toEqual(
      refused(),
    );
    expect(await attempt(db, anon, (tx) => tx.query(batch))).toEqual(refused());
  });

  it('creates the missing agent status rows and upserts them', async () => {
    const me = asUser(alice);
    const fill = `insert into public.ai_agents_status (agent_type)
                  select t from unnest(enum_range(null::public.agent_type)) t`;
    expect(await attempt(db, me, (tx) => tx.query(fill))).toEqual(touched(7));
    const { rows } = await db.query(
      'select count(*)::int as n from public.ai_agents_status where user_id = $1 and not is_active',
      [alice],
    );
    expect(rows).toEqual([{ n: 7 }]);
    const upsert = `insert into public.ai_agents_status (agent_type, is_active) values ('network_monitor', true)
                    on conflict (user_id, agent_type) do update set is_active = excluded.is_active`;
    expect(await attempt(db, me, (tx) => tx.query(upsert))).toEqual(touched(1));
  });

  it('upserts the second-factor marker and settings of the owner', async () => {
    const me = asUser(bob);
    const upsert = `insert into public.two_factor_auth (user_id, is_enabled, method) values ($1, true, 'biometric')
                    on conflict (user_id) do update set is_enabled = excluded.is_enabled, method = excluded.method`;
    expect(await attempt(db, me, (tx) => tx.query(upsert, [bob]))).toEqual(touched(1));
    expect(await attempt(db, me, (tx) => tx.query(upsert, [bob]))).toEqual(touched(1));
    expect(await attempt(db, me, (tx) => tx.query(upsert, [alice]))).toEqual(refused());
    const settings = `insert into public.user_settings (user_id, webhook_notifications, webhook_url) values ($1, true, $2)
                      on conflict (user_id) do update set webhook_notifications = excluded.webhook_notifications, webhook_url = excluded.webhook_url`;
    expect(
      await attempt(db, me, (tx) => tx.query(settings, [bob, 'https://hooks.example.com/vigil?x=1'])),
    ).toEqual(touched(1));
    expect(await attempt(db, me, (tx) => tx.query(settings, [bob, 'http://hooks.example.com/']))).toEqual(
      refused('23514'),
    );
    expect(await attempt(db, me, (tx) => tx.query(settings, [bob, 'https://hooks.example.com/\n']))).toEqual(
      refused('23514'),
    );
  });

  it('serves the catalogue to visitors and customers, read-only', async () => {
    const roles = await attempt(db, anon, (tx) => tx.query('select * from public.agent_roles'));
    expect(roles).toEqual(touched(7));
    expect(
      await attempt(db, anon, (tx) => tx.query('select * from public.pricing_plans order by price_monthly')),
    ).toEqual(touched(3));
    expect(await attempt(db, asUser(alice), (tx) => tx.query('select * from public.agent_roles'))).toEqual(
      touched(7),
    );
    for (const who of [anon, asUser(alice)]) {
      expect(
        await attempt(db, who, (tx) => tx.query('update public.agent_roles set price_monthly = 1')),
      ).toEqual(refused());
      expect(await attempt(db, who, (tx) => tx.query('delete from public.pricing_plans'))).toEqual(refused());
      expect(
        await attempt(db, who, (tx) =>
          tx.query(
            `insert into public.agent_roles (name, description, role_type, price_monthly) values ('x', 'y', 'cloud_security', 0)`,
          ),
        ),
      ).toEqual(refused());
    }
    expect(
      await attempt(db, service, (tx) =>
        tx.query(`update public.pricing_plans set description = description`),
      ),
    ).toEqual(touched(3));
  });

  it('keeps updated_at on the server clock', async () => {
    const { rows } = await db.query<{ id: string }>(
      'select id from public.user_settings where user_id = $1',
      [alice],
    );
    await attempt(db, asUser(alice), (tx) =>
      tx.query(
        `update public.user_settings set realtime_alerts = false, updated_at = '2000-01-01' where id = $1`,
        [rows[0]!.id],
      ),
    );
    const after = await db.query<{ fresh: boolean }>(
      `select updated_at > now() - interval '1 minute' as fresh from public.user_settings where id = $1`,
      [rows[0]!.id],
    );
    expect(after.rows).toEqual([{ fresh: true }]);
  });
});
