// The schema's own constraints refuse bad data whoever writes it (here: the service role, which bypasses RLS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import {
  attempt,
  createUser,
  insertSql,
  refused,
  schemaTargets,
  service,
  touched,
} from '../../helpers/db-roles.ts';

const CHECK = '23514';
const ENUM = '22P02';
const UNIQUE = '23505';
const NOT_NULL = '23502';

describe.each(schemaTargets())('schema constraints on $name', ({ open }) => {
  let db: Database;
  let user: string;
  const insert = (table: string, values: Record<string, unknown>) => {
    const [sql, params] = insertSql(table, { user_id: user, ...values });
    return attempt(db, service, (tx) => tx.query(sql, params));
  };
  beforeAll(async () => {
    db = await open();
    user = await createUser(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  const event = { event_type: 'open_port', description: 'Telnet exposed', severity: 'high' };
  const insight = {
    title: 'Rising',
    description: 'More alerts',
    insight_type: 'trend',
    confidence_score: 0.5,
  };

  it.each([
    [
      'a severity outside critical/high/medium/low',
      'security_events',
      { ...event, severity: 'catastrophic' },
      ENUM,
    ],
    ['an event status outside the enum', 'security_events', { ...event, status: 'closed' }, ENUM],
    ['a scan status outside the enum', 'scan_results', { scan_type: 'webapp', status: 'running' }, ENUM],
    ['an unknown scan type', 'scan_results', { scan_type: 'mainframe' }, ENUM],
    ['a report type outside the four', 'report_configurations', { name: 'r', report_type: 'gdpr' }, ENUM],
    ['a schedule outside the four', 'report_configurations', { name: 'r', schedule_type: 'hourly' }, ENUM],
    ['an unknown agent type', 'ai_agents_status', { agent_type: 'hacker' }, ENUM],
    ['a subscription status outside the enum', 'subscriptions', { status: 'free' }, ENUM],
    ['a log level outside info/warning/error', 'application_logs', { level: 'debug', message: 'x' }, ENUM],
    ['a two-factor method outside biometric/totp', 'two_factor_auth', { method: 'sms' }, ENUM],
    ['confidence 1.5', 'ml_insights', { ...insight, confidence_score: 1.5 }, CHECK],
    ['confidence below 0', 'ml_insights', { ...insight, confidence_score: -0.1 }, CHECK],
    ['confidence NaN', 'ml_insights', { ...insight, confidence_score: 'NaN' }, CHECK],
    ['a metric of infinity', 'monitoring_metrics', { metric_name: 'm', value: 'Infinity' }, CHECK],
    [
      'metric metadata that is not an object',
      'monitoring_metrics',
      { metric_name: 'm', value: 1, metadata: [1] },
      CHECK,
    ],
    ['an empty report name', 'report_configurations', { name: '   ' }, CHECK],
    [
      'a completed report without a file',
      'generated_reports',
      { report_type: 'soc_compliance', status: 'completed' },
      CHECK,
    ],
    [
      'a failed report without a reason',
      'generated_reports',
      { report_type: 'soc_compliance', status: 'failed' },
      CHECK,
    ],
    [
      'a scan that ends before it starts',
      'scan_results',
      { scan_type: 'api', start_time: '2026-01-02', end_time: '2026-01-01' },
      CHECK,
    ],
    [
      'recommendation steps that are not a list',
      'ai_security_recommendations',
      { title: 't', description: 'd', priority: 'high', category: 'c', steps: { a: 1 } },
      CHECK,
    ],
    ['an event without a severity', 'security_events', { event_type: 'x', description: 'y' }, NOT_NULL],
  ])('refuses %s', async (_label, table, values, code) => {
    expect(await insert(table, values)).toEqual(refused(code));
  });

  it('refuses negative prices in the catalogue', async () => {
    const role = `insert into public.agent_roles (name, description, role_type, price_monthly) values ('Neg', 'x', 'cloud_security', -1)`;
    expect(await attempt(db, service, (tx) => tx.query(role))).toEqual(refused(CHECK));
    const plan = `insert into public.pricing_plans (name, tier, price_monthly, price_yearly) values ('Neg', 'starter', 100, -1)`;
    expect(await attempt(db, service, (tx) => tx.query(plan))).toEqual(refused(CHECK));
  });

  it('keeps one row per customer where the product expects one', async () => {
    expect(await insert('subscriptions', { status: 'trialing' })).toEqual(touched(1));
    expect(await insert('subscriptions', { status: 'active' })).toEqual(refused(UNIQUE));
    expect(await insert('ai_agents_status', { agent_type: 'threat_detector' })).toEqual(touched(1));
    expect(await insert('ai_agents_status', { agent_type: 'threat_detector' })).toEqual(refused(UNIQUE));
    expect(await insert('security_tool_configurations', { tool_type: 'api' })).toEqual(touched(1));
    expect(await insert('security_tool_configurations', { tool_type: 'api' })).toEqual(refused(UNIQUE));
    const role = 'a9e1c0de-0001-4000-8000-000000000001';
    expect(await insert('user_agent_subscriptions', { agent_role_id: role, status: 'trialing' })).toEqual(
      touched(1),
    );
    expect(await insert('user_agent_subscriptions', { agent_role_id: role, status: 'active' })).toEqual(
      refused(UNIQUE),
    );
  });

  it('runs one scan per type at a time', async () => {
    expect(await insert('scan_results', { scan_type: 'infrastructure', status: 'in_progress' })).toEqual(
      touched(1),
    );
    expect(await insert('scan_results', { scan_type: 'infrastructure', status: 'queued' })).toEqual(
      refused(UNIQUE),
    );
    expect(await insert('scan_results', { scan_type: 'infrastructure', status: 'completed' })).toEqual(
      touched(1),
    );
  });

  it('refuses rows for users that do not exist', async () => {
    const [sql, params] = insertSql('security_events', {
      ...event,
      user_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(await attempt(db, service, (tx) => tx.query(sql, params))).toEqual(refused('23503'));
  });
});
