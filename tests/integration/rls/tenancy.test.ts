// Cross-tenant attempts on every table, through the unmodified supabase-js over REST and realtime:
// a second customer (Bob) and a visitor try to read, insert, update and delete the first customer's (Alice's)
// rows, and to receive her realtime changes. Nothing may leak or change. A new tenant table without a row
// factory below fails the coverage test, so the suite grows with the schema.
import { REALTIME_SUBSCRIBE_STATES as STATE } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';

type Row = Record<string, unknown>;
type Factory = (userId: string, ctx: { roleId: string }) => Row;

/** One row per tenant table, as the service role (agents, functions) or the product would write it. */
const FACTORIES: Record<string, Factory> = {
  two_factor_auth: (user_id) => ({ user_id, is_enabled: false, method: 'totp' }),
  subscriptions: (user_id) => ({ user_id, status: 'trialing' }),
  user_agent_subscriptions: (user_id, { roleId }) => ({ user_id, agent_role_id: roleId, status: 'trialing' }),
  ai_agents_status: (user_id) => ({ user_id, agent_type: 'penetration_tester' }),
  monitoring_metrics: (user_id) => ({ user_id, metric_name: 'page_view', value: 1 }),
  security_tool_configurations: (user_id) => ({ user_id, tool_type: 'webapp' }),
  scan_results: (user_id) => ({ user_id, scan_type: 'webapp', status: 'completed', severity_level: 'high' }),
  security_events: (user_id) => ({
    user_id,
    event_type: 'finding',
    description: 'Exposed .git',
    severity: 'high',
  }),
  ml_insights: (user_id) => ({
    user_id,
    title: 'Spike',
    description: 'd',
    insight_type: 'trend',
    confidence_score: 0.8,
  }),
  ai_security_recommendations: (user_id) => ({
    user_id,
    title: 'Add HSTS',
    description: 'd',
    priority: 'high',
    category: 'headers',
  }),
  report_configurations: (user_id) => ({ user_id, name: 'Weekly SOC 2' }),
  generated_reports: (user_id) => ({ user_id, report_type: 'soc_compliance' }),
  application_logs: (user_id) => ({ user_id, level: 'info', message: 'hello' }),
  billing_customers: (user_id) => ({ user_id, provider_customer_id: `cus_${user_id.slice(0, 8)}` }),
  scan_targets: (user_id) => ({ user_id, kind: 'url', value: `https://${user_id.slice(0, 8)}.example.com` }),
  // Seeded after scan_targets: the login belongs to her target.
  scan_target_logins: (user_id) => ({
    user_id,
    target_id: aliceRows.get('scan_targets')?.value,
    kind: 'cookie',
    sealed: `v1.${'0'.repeat(16)}.${'A'.repeat(16)}.${'A'.repeat(24)}`,
    key_id: '0'.repeat(16),
  }),
  jobs: (user_id) => ({ user_id, kind: 'analysis' }),
  findings: (user_id) => ({
    user_id,
    scanner: 'webapp',
    fingerprint: `fp-${crypto.randomUUID()}`,
    rule_id: 'headers.hsts-missing',
    title: 'HSTS missing',
    severity: 'medium',
    location: 'https://example.com/',
  }),
  notification_outbox: (user_id) => ({
    user_id,
    channel: 'email',
    recipient: 'alice@example.com',
    subject: 'Scan finished',
    payload: { scan: 1 },
  }),
  webauthn_challenges: (user_id) => ({
    user_id,
    challenge: `c-${crypto.randomUUID()}`,
    factor_id: crypto.randomUUID(),
    auth_challenge_id: crypto.randomUUID(),
    rp_id: 'localhost',
    expires_at: new Date(Date.now() + 60_000).toISOString(),
  }),
  webauthn_credentials: (user_id) => ({
    user_id,
    factor_id: crypto.randomUUID(),
    credential_id: `cred-${crypto.randomUUID()}`,
    public_key: 'pQECAyYgASFYIA',
  }),
  billing_trials: (user_id) => ({
    provider_subscription_id: `sub_tenancy_${user_id.slice(0, 8)}`,
    user_id,
    card_fingerprint: 'fpTenancy0000001',
  }),
  checkout_sessions: (user_id, { roleId }) => ({
    user_id,
    role_ids: [roleId],
    subtotal: 29900,
    discount: 0,
    total: 29900,
    success_url: 'http://127.0.0.1/dashboard?success=true',
    cancel_url: 'http://127.0.0.1/dashboard/select-roles',
    csrf_token: 'x'.repeat(32),
  }),
};
/** Tables whose row the sign-up trigger creates; their key is the user id or user_id. */
const CREATED_AT_SIGN_UP = ['profiles', 'user_settings'];

let stack: RunningStack;
let alice: TestUser;
let bob: TestUser;
let visitor: ReturnType<typeof client>;
let service: ReturnType<typeof client>;
/** table → Alice's row key (primary key column and value). */
const aliceRows = new Map<string, { pk: string; value: unknown }>();

const pkOf = async (table: string) =>
  (
    await stack.ctx.db.query<{ col: string }>(
      `select a.attname as col from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = ('public.' || quote_ident($1))::regclass and i.indisprimary`,
      [table],
    )
  ).rows[0]!.col;

const snapshot = async (table: string) => {
  const key = aliceRows.get(table)!;
  const { data, error } = await service.from(table).select('*').eq(key.pk, key.value);
  expect(error).toBeNull();
  return data;
};

beforeAll(async () => {
  stack = await startTestStack();
  alice = await signedInUser(stack, 'alice-tenancy@example.com');
  bob = await signedInUser(stack, 'bob-tenancy@example.com');
  visitor = client(stack);
  service = client(stack, 'service_role');
  const roleId = (await service.from('agent_roles').select('id').limit(1).single()).data!.id as string;
  for (const [table, make] of Object.entries(FACTORIES)) {
    const { data, error } = (await service
      .from(table)
      .insert(make(alice.id, { roleId }))
      .select('*')
      .single()) as {
      data: Row | null;
      error: { message: string } | null;
    };
    if (error) {
      throw new Error(`seeding ${table}: ${error.message}`);
    }
    const pk = await pkOf(table);
    aliceRows.set(table, { pk, value: data?.[pk] });
  }
  for (const table of CREATED_AT_SIGN_UP) {
    const pk = await pkOf(table);
    const column = table === 'profiles' ? 'id' : 'user_id';
    const { data } = await service.from(table).select(pk).eq(column, alice.id).single();
    aliceRows.set(table, { pk, value: (data as Row | null)?.[pk] });
  }
}, 120_000);
afterAll(() => stack.close());

describe('tenancy', () => {
  it('covers every table that holds customer data', async () => {
    const { rows } = await stack.ctx.db.query<{ table_name: string }>(
      `select distinct table_name from information_schema.columns
        where table_schema = 'public' and (column_name = 'user_id' or table_name = 'profiles')`,
    );
    const uncovered = rows
      .map((r) => r.table_name)
      .filter((t) => !(t in FACTORIES) && !CREATED_AT_SIGN_UP.includes(t));
    expect(uncovered, 'tables without a cross-tenant factory in tenancy.test.ts').toEqual([]);
  });

  const tables = () => [...aliceRows.keys()];

  it('a second customer and a visitor read none of her rows', async () => {
    for (const table of tables()) {
      const { pk, value } = aliceRows.get(table)!;
      for (const [who, c] of [
        ['bob', bob.supabase],
        ['visitor', visitor],
      ] as const) {
        const { data } = await c.from(table).select('*').eq(pk, value);
        expect(data ?? [], `${who} reads ${table}`).toEqual([]);
      }
    }
    // Her own client sees her rows (the check above is not vacuous).
    const { data } = await alice.supabase.from('security_events').select('id');
    expect(data).toHaveLength(1);
  });

  it('they cannot insert rows in her name', async () => {
    const roleId = (await service.from('agent_roles').select('id').order('name').limit(1).single()).data!
      .id as string;
    const count = async (table: string) =>
      (await service.from(table).select('*', { count: 'exact', head: true }).eq('user_id', alice.id)).count;
    for (const [table, make] of Object.entries(FACTORIES)) {
      const before = await count(table);
      for (const [who, c] of [
        ['bob', bob.supabase],
        ['visitor', visitor],
      ] as const) {
        const { error } = await c.from(table).insert(make(alice.id, { roleId }));
        expect(error, `${who} inserts into ${table} for alice`).not.toBeNull();
      }
      expect(await count(table), `alice's ${table} rows`).toBe(before);
    }
  });

  it('they cannot change or delete her rows', async () => {
    for (const table of tables()) {
      const { pk, value } = aliceRows.get(table)!;
      const before = await snapshot(table);
      for (const c of [bob.supabase, visitor]) {
        await c.from(table).update({ created_at: '2000-01-01T00:00:00Z' }).eq(pk, value);
        await c.from(table).delete().eq(pk, value);
      }
      expect(await snapshot(table), `${table} after bob and a visitor tried`).toEqual(before);
    }
  });

  it('realtime delivers her changes to her only', async () => {
    const { rows } = await stack.ctx.db.query<{ tablename: string }>(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'`,
    );
    const published = rows.map((r) => r.tablename).filter((t) => aliceRows.has(t));
    expect(published.length).toBeGreaterThan(0);
    const received = { alice: [] as string[], bob: [] as string[], visitor: [] as string[] };
    const channels = await Promise.all(
      (
        [
          ['alice', alice.supabase],
          ['bob', bob.supabase],
          ['visitor', visitor],
        ] as const
      ).map(
        ([who, c]) =>
          new Promise<{ unsubscribe(): Promise<unknown> }>((resolve, reject) => {
            const ch = c.channel(`tenancy-${who}`);
            for (const table of published) {
              ch.on('postgres_changes', { event: '*', schema: 'public', table }, () =>
                received[who].push(table),
              );
            }
            ch.subscribe((status) =>
              status === STATE.SUBSCRIBED
                ? resolve(ch)
                : status === STATE.CHANNEL_ERROR
                  ? reject(new Error(status))
                  : undefined,
            );
          }),
      ),
    );
    for (const table of published) {
      const { pk, value } = aliceRows.get(table)!;
      // A no-op UPDATE still fires the change: it is delivered to whoever may see the row.
      await stack.ctx.db.query(`update public.${table} set ${pk} = ${pk} where ${pk} = $1`, [value]);
    }
    await expect
      .poll(() => [...new Set(received.alice)].sort(), { timeout: 10_000 })
      .toEqual([...published].sort());
    await new Promise((r) => setTimeout(r, 500));
    expect(received.bob).toEqual([]);
    expect(received.visitor).toEqual([]);
    await Promise.all(channels.map((c) => c.unsubscribe()));
  });
});
