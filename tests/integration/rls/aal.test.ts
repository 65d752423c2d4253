// The second factor enforced by row-level security (docs/product.md §15): once a user has a verified factor, a
// password-only token (aal1) reads and writes none of that user's rows, in every table, while aal2 keeps
// exactly the rights the permissive policies give; a user without a verified factor is not affected.
// Every tenant table × select/insert/update/delete × aal1/aal2 × with/without a factor, on PGlite and
// (scripts/test-postgres.sh) PostgreSQL 15.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import type { RequestRole } from '../../../server/http/request-role.ts';
import { attempt, createUser, insertAs, insertSql, schemaTargets, service } from '../../helpers/db-roles.ts';

const PENTESTER_ROLE = 'a9e1c0de-0002-4000-8000-000000000002';
/** The public catalogue: the only tables in public a visitor and any token may read. */
const CATALOGUE = ['agent_roles', 'agent_scan_coverage', 'pricing_plans'];

type Values = Record<string, unknown>;

interface TenantTable {
  table: string;
  /** The column naming the row's user (profiles: id), or null for a table without one. */
  owner: 'user_id' | 'id' | null;
  /** A valid row for a user; null when the sign-up trigger creates it. */
  row: ((user: string) => Values) | null;
  /** A column a customer might update, and a valid value for it. */
  update: [string, unknown];
  /** The primary key column, when it is not id. */
  key?: string;
}

const unique = () => randomBytes(16).toString('hex');

/** A target of each user, for the table whose rows must belong to one (scan_target_logins). */
const targetOf = new Map<string, string>();

const TABLES: TenantTable[] = [
  { table: 'profiles', owner: 'id', row: null, update: ['full_name', 'Grace'] },
  { table: 'user_settings', owner: 'user_id', row: () => ({}), update: ['realtime_alerts', false] },
  {
    table: 'two_factor_auth',
    owner: 'user_id',
    row: () => ({ is_enabled: true, method: 'biometric' }),
    update: ['is_enabled', false],
  },
  {
    table: 'subscriptions',
    owner: 'user_id',
    row: () => ({ status: 'trialing', provider_customer_id: `cus_${unique()}` }),
    update: ['status', 'active'],
  },
  {
    table: 'user_agent_subscriptions',
    owner: 'user_id',
    row: () => ({ agent_role_id: PENTESTER_ROLE, status: 'trialing' }),
    update: ['status', 'active'],
  },
  {
    table: 'ai_agents_status',
    owner: 'user_id',
    row: () => ({ agent_type: 'soc_analyzer' }),
    update: ['is_active', true],
  },
  {
    table: 'monitoring_metrics',
    owner: 'user_id',
    row: () => ({ metric_name: 'page_view', value: 1, metadata: { path: '/dashboard' } }),
    update: ['value', 0],
  },
  {
    table: 'security_tool_configurations',
    owner: 'user_id',
    row: () => ({ tool_type: 'webapp', enabled: true, connection_status: 'connected' }),
    update: ['enabled', false],
  },
  {
    table: 'scan_results',
    owner: 'user_id',
    row: () => ({
      scan_type: 'webapp',
      status: 'completed',
      severity_level: 'high',
      target: 'https://a.example',
    }),
    update: ['severity_level', 'none'],
  },
  {
    table: 'security_events',
    owner: 'user_id',
    row: () => ({ event_type: 'open_port', description: 'Telnet exposed', severity: 'high' }),
    update: ['status', 'dismissed'],
  },
  {
    table: 'ml_insights',
    owner: 'user_id',
    row: () => ({
      title: 'Rising',
      description: 'More alerts',
      insight_type: 'trend',
      confidence_score: 0.8,
    }),
    update: ['confidence_score', 0],
  },
  {
    table: 'ai_security_recommendations',
    owner: 'user_id',
    row: () => ({ title: 'Add HSTS', description: 'Send HSTS', priority: 'high', category: 'web' }),
    update: ['status', 'dismissed'],
  },
  {
    table: 'report_configurations',
    owner: 'user_id',
    row: () => ({ name: 'Weekly SOC 2', schedule_type: 'weekly' }),
    update: ['is_enabled', false],
  },
  {
    table: 'generated_reports',
    owner: 'user_id',
    row: () => ({ report_type: 'soc_compliance', status: 'completed', file_path: 'reports/a.pdf' }),
    update: ['file_path', 'x.pdf'],
  },
  {
    table: 'application_logs',
    owner: 'user_id',
    row: () => ({ level: 'error', message: 'boom', context: { at: 'test' } }),
    update: ['message', 'forged'],
  },
  { table: 'jobs', owner: 'user_id', row: () => ({ kind: 'analysis' }), update: ['priority', 9] },
  // Before scan_targets, whose turn deletes the users' targets (and so their logins).
  {
    table: 'scan_target_logins',
    owner: 'user_id',
    row: (user) => ({
      target_id: targetOf.get(user),
      kind: 'cookie',
      sealed: `v1.${'0'.repeat(16)}.${'A'.repeat(16)}.${'A'.repeat(24)}`,
      key_id: '0'.repeat(16),
    }),
    update: ['kind', 'header'],
    key: 'target_id',
  },
  {
    table: 'scan_targets',
    owner: 'user_id',
    row: () => ({ kind: 'url', value: `https://${unique()}.example` }),
    update: ['rate_limit', 5],
  },
  {
    table: 'findings',
    owner: 'user_id',
    row: () => ({
      scanner: 'webapp',
      fingerprint: unique(),
      rule_id: 'web.hsts-missing',
      title: 'HSTS missing',
      severity: 'low',
      location: 'https://a.example/',
    }),
    update: ['status', 'false_positive'],
  },
  {
    table: 'notification_outbox',
    owner: 'user_id',
    row: () => ({ channel: 'email', recipient: 'a@example.test', subject: 'Scan done', payload: {} }),
    update: ['status', 'sent'],
  },
  {
    table: 'billing_customers',
    owner: 'user_id',
    row: () => ({ provider_customer_id: `cus_${unique()}` }),
    update: ['provider_customer_id', `cus_${unique()}`],
    key: 'user_id',
  },
  {
    table: 'checkout_sessions',
    owner: 'user_id',
    row: () => ({
      role_ids: `{${PENTESTER_ROLE}}`,
      subtotal: 100,
      discount: 0,
      total: 100,
      success_url: 'http://localhost/ok',
      cancel_url: 'http://localhost/no',
      csrf_token: unique() + unique(),
    }),
    update: ['status', 'complete'],
  },
  {
    table: 'billing_events',
    owner: null,
    row: () => ({
      id: `evt_${unique()}`,
      type: 'checkout.session.completed',
      created: new Date(),
      outcome: 'applied',
    }),
    update: ['outcome', 'ignored'],
  },
  {
    table: 'billing_trials',
    owner: 'user_id',
    row: () => ({ provider_subscription_id: `sub_${unique()}`, card_fingerprint: unique() }),
    update: ['card_fingerprint', 'forged'],
    key: 'provider_subscription_id',
  },
  {
    table: 'webauthn_challenges',
    owner: 'user_id',
    row: () => ({
      challenge: unique(),
      factor_id: randomUUID(),
      auth_challenge_id: randomUUID(),
      rp_id: 'localhost',
      expires_at: new Date(Date.now() + 60_000),
    }),
    update: ['rp_id', 'evil.example'],
  },
  {
    table: 'webauthn_credentials',
    owner: 'user_id',
    row: () => ({ factor_id: randomUUID(), credential_id: unique(), public_key: 'pQECAyYgASFYIA' }),
    update: ['counter', 7],
  },
];

interface Persona {
  name: string;
  factor: 'verified' | 'unverified' | 'none';
  aal: 'aal1' | 'aal2';
  /** What the second factor leaves this token: everything the permissive policies allow, or nothing. */
  blocked: boolean;
}

const PERSONAS: Persona[] = [
  { name: 'verified factor, aal1', factor: 'verified', aal: 'aal1', blocked: true },
  { name: 'verified factor, aal2', factor: 'verified', aal: 'aal2', blocked: false },
  { name: 'unverified factor only, aal1', factor: 'unverified', aal: 'aal1', blocked: false },
  { name: 'no factor, aal1', factor: 'none', aal: 'aal1', blocked: false },
  { name: 'no factor, aal2', factor: 'none', aal: 'aal2', blocked: false },
];

const tokenOf = (user: string, aal: string): RequestRole => ({
  role: 'authenticated',
  claims: { sub: user, role: 'authenticated', aud: 'authenticated', aal, session_id: randomUUID() },
  accessToken: null,
});

async function addFactor(db: Database, user: string, status: 'verified' | 'unverified'): Promise<void> {
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret)
     values ($1, $2, $3, 'totp', $4, 'JBSWY3DPEHPK3PXP')`,
    [randomUUID(), user, `phone-${unique()}`, status],
  );
}

describe.each(schemaTargets())('the second factor in row-level security on $name', ({ open }) => {
  let db: Database;
  const users = new Map<string, string>();
  const privileges = new Map<
    string,
    { select: boolean; insert: boolean; update: boolean; delete: boolean }
  >();

  beforeAll(async () => {
    db = await open();
    for (const p of PERSONAS) {
      const user = await createUser(db, { full_name: p.name });
      if (p.factor !== 'none') {
        await addFactor(db, user, p.factor);
      }
      users.set(p.name, user);
      const target = await insertAs(db, service, 'scan_targets', {
        user_id: user,
        kind: 'url',
        value: `https://${unique()}.example.com`,
      });
      targetOf.set(user, target.id as string);
    }
    for (const t of TABLES) {
      const { rows } = await db.query<{ s: boolean; i: boolean; u: boolean; d: boolean }>(
        `select has_table_privilege('authenticated', $1, 'SELECT') as s,
                has_any_column_privilege('authenticated', $1, 'INSERT') as i,
                has_column_privilege('authenticated', $1, $2, 'UPDATE') as u,
                has_table_privilege('authenticated', $1, 'DELETE') as d`,
        [`public.${t.table}`, t.update[0]],
      );
      const r = rows[0]!;
      privileges.set(t.table, { select: r.s, insert: r.i, update: r.u, delete: r.d });
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it('puts a restrictive policy for every command on every table in public but the catalogue', async () => {
    const { rows } = await db.query<{ table: string }>(
      `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> all($1)
          and not exists (
            select 1 from pg_policy p
             where p.polrelid = c.oid and not p.polpermissive and p.polcmd = '*'
               and 'authenticated'::regrole = any(p.polroles)
               and pg_get_expr(p.polqual, p.polrelid) like '%private.assurance%'
               and pg_get_expr(p.polwithcheck, p.polrelid) like '%private.assurance%')
        order by 1`,
      [CATALOGUE],
    );
    expect(rows).toEqual([]);
    // ...and this suite covers every one of them.
    const all = await db.query<{ table: string }>(
      `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> all($1) order by 1`,
      [CATALOGUE],
    );
    expect(all.rows.map((r) => r.table)).toEqual(TABLES.map((t) => t.table).sort());
  });

  it('checks the factor once per statement (an init plan), not once per row', async () => {
    const alice = users.get('verified factor, aal1')!;
    for (let i = 0; i < 3; i++) {
      await insertAs(db, service, 'security_events', {
        user_id: alice,
        event_type: 'x',
        description: 'y',
        severity: 'low',
      });
    }
    const { rows } = await db.transaction(async (tx) => {
      await tx.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [JSON.stringify(tokenOf(alice, 'aal1').claims)],
      );
      return tx.query<{ 'QUERY PLAN': string }>(
        'explain (costs off, verbose) select * from public.security_events',
      );
    });
    const lines = rows.map((r) => r['QUERY PLAN'].trim());
    // The scan's filter reads an init plan's result (PostgreSQL 17, PGlite: "(InitPlan 1).col1"; 15: "$0").
    const filter = lines.find((l) => l.startsWith('Filter:'));
    expect(filter).toMatch(/^Filter: (\(InitPlan \d\)\.col1|\$\d+)$/);
    // The factor lookup inside it goes through GoTrue's index on (user_id, created_at).
    expect(lines.some((l) => /Index.* (on|using) factor_id_created_at_idx/.test(l))).toBe(true);
    expect(lines.filter((l) => l.includes('auth.mfa_factors'))).toHaveLength(1);
  });

  describe.each(TABLES)('$table', (t) => {
    describe.each(PERSONAS)('$name', (p) => {
      const user = () => users.get(p.name)!;
      const token = () => tokenOf(user(), p.aal);

      /** A row of this persona, written as the agents write (service role); its id. */
      async function plant(): Promise<string> {
        if (!t.row) {
          const { rows } = await db.query<{ id: string }>(`select id from public.${t.table} where id = $1`, [
            user(),
          ]);
          return rows[0]!.id;
        }
        if (t.owner === 'user_id') {
          await db.query(`delete from public.${t.table} where user_id = $1`, [user()]);
        }
        const row = await insertAs(db, service, t.table, {
          ...t.row(user()),
          ...(t.owner ? { [t.owner]: user() } : {}),
        });
        return row[t.key ?? 'id'] as string;
      }

      it('select, update, delete and insert as the permissive policies allow, or nothing at aal1', async () => {
        const may = privileges.get(t.table)!;
        const id = await plant();
        const [col, value] = t.update;

        const seen = await attempt(db, token(), (tx) =>
          tx.query(`select * from public.${t.table} where ${t.key ?? 'id'} = $1`, [id]),
        );
        const updated = await attempt(db, token(), (tx) =>
          tx.query(`update public.${t.table} set "${col}" = $2 where ${t.key ?? 'id'} = $1`, [id, value]),
        );
        const deleted = await attempt(db, token(), (tx) =>
          tx.query(`delete from public.${t.table} where ${t.key ?? 'id'} = $1`, [id]),
        );
        if (t.row && t.owner === 'user_id') {
          await db.query(`delete from public.${t.table} where user_id = $1`, [user()]);
        }
        const [insert, params] = insertSql(t.table, {
          ...(t.row ? t.row(user()) : {}),
          ...(t.owner ? { [t.owner]: user() } : {}),
        });
        const inserted = await attempt(db, token(), (tx) => tx.query(insert, params));

        const owned = t.owner !== null;
        const expected = {
          select: may.select ? { ok: true, rows: owned && !p.blocked ? 1 : 0 } : { ok: false, code: '42501' },
          update: may.update ? { ok: true, rows: owned && !p.blocked ? 1 : 0 } : { ok: false, code: '42501' },
          delete: may.delete ? { ok: true, rows: owned && !p.blocked ? 1 : 0 } : { ok: false, code: '42501' },
          insert: may.insert && !p.blocked ? { ok: true, rows: 1 } : { ok: false, code: '42501' },
        };
        expect({ select: seen, update: updated, delete: deleted, insert: inserted }).toEqual(expected);
      });
    });
  });

  it('refuses the customer RPCs at aal1 once a factor exists, and runs them at aal2', async () => {
    const alice = users.get('verified factor, aal1')!;
    // Reports need an active or trialing agent (docs/product.md §14).
    await db.query(`delete from public.user_agent_subscriptions where user_id = $1`, [alice]);
    await insertAs(db, service, 'user_agent_subscriptions', {
      user_id: alice,
      agent_role_id: PENTESTER_ROLE,
      status: 'trialing',
    });
    const config = await insertAs(db, service, 'report_configurations', {
      user_id: alice,
      name: 'Monthly',
      schedule_type: 'monthly',
    });
    const event = await insertAs(db, service, 'security_events', {
      user_id: alice,
      event_type: 'x',
      description: 'y',
      severity: 'low',
    });
    const rec = await insertAs(db, service, 'ai_security_recommendations', {
      user_id: alice,
      title: 'Patch',
      description: 'Patch it',
      priority: 'high',
      category: 'web',
    });
    const calls: [string, string][] = [
      ['select public.request_report($1)', config.id as string],
      ['select public.resolve_security_event($1)', event.id as string],
      ['select public.mark_recommendation_implemented($1)', rec.id as string],
    ];
    for (const [sql, id] of calls) {
      expect(await attempt(db, tokenOf(alice, 'aal1'), (tx) => tx.query(sql, [id]))).toEqual({
        ok: false,
        code: '42501',
      });
    }
    for (const [sql, id] of calls) {
      expect(await attempt(db, tokenOf(alice, 'aal2'), (tx) => tx.query(sql, [id]))).toEqual({
        ok: true,
        rows: 1,
      });
    }
    // The bodies behind the guards are not callable by clients.
    for (const fn of ['request_report', 'resolve_security_event', 'mark_recommendation_implemented']) {
      expect(
        await attempt(db, tokenOf(alice, 'aal2'), (tx) =>
          tx.query(`select private.${fn}_unguarded($1)`, [randomUUID()]),
        ),
      ).toEqual({ ok: false, code: '42501' });
    }
  });

  it('hides the files of private buckets at aal1 once a factor exists', async () => {
    const alice = users.get('verified factor, aal1')!;
    await db.query(
      `insert into storage.objects (bucket_id, name, owner, metadata) values ('reports', $1, $2, '{}'::jsonb)`,
      [`${alice}/report.pdf`, alice],
    );
    const list = (aal: string) =>
      attempt(db, tokenOf(alice, aal), (tx) =>
        tx.query(`select name from storage.objects where bucket_id = 'reports'`),
      );
    expect(await list('aal1')).toEqual({ ok: true, rows: 0 });
    expect(await list('aal2')).toEqual({ ok: true, rows: 1 });
  });

  it('answers nothing to a token whose subject is not a user id', async () => {
    const odd: RequestRole = {
      role: 'authenticated',
      claims: { sub: 'not-a-uuid', role: 'authenticated', aal: 'aal1' },
      accessToken: null,
    };
    expect(await attempt(db, odd, (tx) => tx.query('select * from public.security_events'))).toEqual({
      ok: false,
      code: '22P02',
    });
  });
});
