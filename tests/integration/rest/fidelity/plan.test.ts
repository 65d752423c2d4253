import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import {
  configure,
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Execution plan" (Accept: application/vnd.pgrst.plan, text by
// default or +json, `for` the representation planned, options analyze|verbose|settings|buffers|wal, off
// unless db-plan-enabled, and "akin to the EXPLAIN command, the changes will be committed when using the
// analyze option", use Prefer: tx=rollback to avoid it) and its PlanSpec (the Content-Type naming the
// plan with its `for` and options, status 200, 406 while disabled); postgrest-js's explain() sends
// `application/vnd.pgrst.plan+<format>; for="<accept>"; options=<a|b>;`.
let stack: RunningStack;
let db: SupabaseClient;
let service: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  db = keyClient(stack);
  service = keyClient(stack, 'service_role');
});
afterAll(() => stopFidelityStack(stack));

const plan = (path: string, accept: string, init: RequestInit = {}) =>
  rest(stack, path, { ...init, headers: { ...init.headers, accept } });

describe('execution plans while db-plan-enabled is off (the default, as on Supabase)', () => {
  it('refuses the plan media type with 406 PGRST107, naming it as PostgREST does', async () => {
    const res = await plan('users?id=in.(1,2,3)', 'application/vnd.pgrst.plan');
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      code: 'PGRST107',
      details: null,
      hint: null,
      message:
        'None of these media types are available: application/vnd.pgrst.plan+text; for="application/json"',
    });
    for (const path of ['rpc/countdown?n=2', 'tickets?id=eq.1']) {
      const method = path.startsWith('tickets') ? 'DELETE' : 'GET';
      expect((await plan(path, 'application/vnd.pgrst.plan', { method })).status).toBe(406);
    }
    const { error, status } = await db.from('users').select('id').explain();
    expect(status).toBe(406);
    expect(error?.code).toBe('PGRST107');
  });
});

describe('execution plans once enabled (alter role authenticator set pgrst.db_plan_enabled)', () => {
  beforeAll(() => configure(stack, { plan: true }));

  it('answers the EXPLAIN of the read in text by default, each line ended by a newline', async () => {
    const res = await plan('users?select=username&order=id', 'application/vnd.pgrst.plan');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    );
    const text = await res.text();
    expect(text.startsWith('Aggregate  (cost=')).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('users');
  });

  it('answers JSON with the options PostgREST passes to EXPLAIN, for the representation asked', async () => {
    const res = await plan(
      'users?select=id&id=eq.1',
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object"; options=analyze|verbose|settings|buffers',
    );
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=analyze|verbose|settings|buffers; charset=utf-8',
    );
    const [explained] = (await res.json()) as [Record<string, unknown> & { Plan: Record<string, unknown> }];
    expect(explained.Plan['Node Type']).toBe('Aggregate');
    expect(explained.Plan['Actual Loops']).toBe(1);
    expect(explained.Plan).toHaveProperty('Output');
    expect(explained.Plan).toHaveProperty('Shared Hit Blocks');
    expect(explained).toHaveProperty('Execution Time');
    // VERBOSE shows the statement's query identifier, as Supabase's Postgres computes them (pg_stat_statements);
    // PGlite is opened with compute_query_id on, and so is the PostgreSQL of scripts/test-postgres.sh.
    expect(typeof explained['Query Identifier']).toBe('number');
    // The request's own transaction settings: the search path PostgREST sets (PGlite adds its own).
    expect(explained.Settings).toMatchObject({ search_path: '"public", "public", "extensions"' });
  });

  it('plans as the request role: row-level security shapes the plan', async () => {
    // tickets admits only authenticated users: anon's plan is a constant false, service_role's a scan.
    const anon = await (await plan('tickets', 'application/vnd.pgrst.plan')).text();
    const service = await (
      await rest(stack, 'tickets', {
        headers: {
          accept: 'application/vnd.pgrst.plan',
          authorization: `Bearer ${stack.status.service_role_key}`,
        },
      })
    ).text();
    expect(anon).toContain('One-Time Filter: false');
    expect(service).not.toContain('One-Time Filter: false');
    expect(service).toContain('Scan on tickets');
  });

  it('plans functions and writes; analyze commits a write unless Prefer: tx=rollback', async () => {
    const call = await plan('rpc/countdown?n=3', 'application/vnd.pgrst.plan');
    expect(call.status).toBe(200);
    expect(await call.text()).toMatch(/^Aggregate {2}\(cost=/);
    const write = (prefer: string) =>
      service
        .from('tickets')
        .insert({ id: 900, title: 'planned' })
        .setHeader('prefer', prefer)
        .explain({ analyze: true });
    const rolledBack = await write('tx=rollback');
    expect(rolledBack.error).toBeNull();
    expect(typeof rolledBack.data).toBe('string');
    expect(rolledBack.data).toContain('Insert on tickets');
    expect((await service.from('tickets').select('id').eq('id', 900)).data).toEqual([]);
    const committed = await write('return=minimal');
    expect(committed.status).toBe(200);
    expect((await service.from('tickets').select('id').eq('id', 900)).data).toEqual([{ id: 900 }]);
    // Without analyze nothing runs.
    await service.from('tickets').delete().eq('id', 901).explain();
    const planned = await service.from('tickets').insert({ id: 901, title: 'x' }).explain();
    expect(planned.data).toContain('Insert on tickets');
    expect((await service.from('tickets').select('id').eq('id', 901)).data).toEqual([]);
  });

  it("works through supabase-js's explain(), in text and JSON", async () => {
    const text = await db.from('users').select('id').eq('id', 1).explain();
    expect(text.error).toBeNull();
    expect(text.data).toMatch(/^Aggregate/);
    const json = await db
      .from('users')
      .select('id')
      .setHeader('Accept', 'text/csv')
      .explain({ format: 'json', verbose: true });
    expect(json.error).toBeNull();
    expect((json.data as unknown as [{ Plan: { 'Node Type': string } }])[0].Plan['Node Type']).toBe(
      'Aggregate',
    );
  });

  it('passes EXPLAIN errors on as Postgres gives them (wal without analyze)', async () => {
    const res = await plan('users', 'application/vnd.pgrst.plan+text; options=wal');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: '22023',
      details: null,
      hint: null,
      message: 'EXPLAIN option WAL requires ANALYZE',
    });
  });
});
