import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client } from '../../helpers/stack.ts';
import {
  ALICE,
  BOB,
  installRestFixture,
  startRestStack,
  userClient,
  userToken,
} from '../../helpers/rest-fixture.ts';

let stack: RunningStack;
let alice: SupabaseClient;
let bob: SupabaseClient;
let service: SupabaseClient;
let aliceProject: number;

beforeAll(async () => {
  stack = await startRestStack();
  await installRestFixture(stack);
  alice = userClient(stack, await userToken(stack, ALICE));
  bob = userClient(stack, await userToken(stack, BOB));
  service = client(stack, 'service_role');
  const { data, error } = await alice
    .from('rt_projects')
    .insert([
      {
        name: 'Alpha',
        budget: 12.5,
        big: 9007199254740993n.toString(),
        meta: { env: 'prod', n: 1 },
        tags: ['a', 'b'],
        body: 'the fat cat sat',
      },
      { name: 'beta', budget: null, meta: { env: 'dev', n: 2 }, tags: ['b'], body: 'a lazy dog' },
      { name: 'Gamma', budget: 3, meta: { env: 'prod', n: 3 }, tags: [], body: null },
    ])
    .select('id');
  expect(error).toBeNull();
  aliceProject = (data as { id: number }[])[0]!.id;
  const tasks = await alice.from('rt_tasks').insert(
    [
      { project_id: aliceProject, title: 'one', priority: 1, author_id: ALICE, reviewer_id: BOB },
      { project_id: aliceProject, title: 'two', priority: 2, done: true, author_id: BOB },
      { project_id: aliceProject, title: 'three', priority: null, author_id: ALICE },
    ],
    { defaultToNull: false },
  );
  expect(tasks.error).toBeNull();
  expect(
    (await alice.from('rt_settings').insert({ project_id: aliceProject, theme: 'dark' })).error,
  ).toBeNull();
  expect((await bob.from('rt_projects').insert({ name: 'Bob secret' })).error).toBeNull();
});
afterAll(() => stack.close());

describe('/rest/v1 reads with supabase-js', () => {
  it("returns only the caller's rows, formatted as PostgREST formats them", async () => {
    const { data, error, status } = await alice.from('rt_projects').select('*').order('id');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toHaveLength(3);
    const first = data![0] as Record<string, unknown>;
    expect(first).toMatchObject({
      name: 'Alpha',
      user_id: ALICE,
      created_at: '2024-01-01T00:00:00+00:00',
      budget: 12.5,
      meta: { env: 'prod', n: 1 },
      tags: ['a', 'b'],
    });
    const bobs = await bob.from('rt_projects').select('name');
    expect(bobs.data).toEqual([{ name: 'Bob secret' }]);
    const anon = await client(stack).from('rt_projects').select('*');
    expect(anon.data).toEqual([]);
    const all = await service.from('rt_projects').select('id', { count: 'exact', head: true });
    expect(all.count).toBe(4);
  });

  it('runs each request as PostgREST does: role, claims, request settings, search path, read-only GET', async () => {
    const token = await userToken(stack, ALICE);
    const call = async (method: 'GET' | 'POST') => {
      const res = await fetch(`${stack.url}/rest/v1/rpc/rt_request`, {
        method,
        headers: {
          apikey: stack.status.anon_key,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-probe': `probe-${method}`,
        },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, string>;
    };
    const expected = {
      role: 'authenticated',
      sub: ALICE,
      path: '/rest/v1/rpc/rt_request',
      // The request's schema first, then the extra search path, as PostgREST sets it.
      search_path: '"public", "public", "extensions"',
    };
    expect(await call('GET')).toEqual({ ...expected, method: 'GET', probe: 'probe-GET', read_only: 'on' });
    // rt_request is STABLE: PostgREST runs a POST to a stable or immutable function read-only too.
    expect(await call('POST')).toEqual({
      ...expected,
      method: 'POST',
      probe: 'probe-POST',
      read_only: 'on',
    });
  });

  it('renders bigint beyond 2^53 as a JSON number exactly', async () => {
    const res = await fetch(`${stack.url}/rest/v1/rt_projects?select=big&name=eq.Alpha`, {
      headers: {
        apikey: stack.status.service_role_key,
        authorization: `Bearer ${stack.status.service_role_key}`,
      },
    });
    expect(await res.text()).toBe('[{"big":9007199254740993}]');
  });

  it('selects columns, aliases, casts and JSON paths', async () => {
    const { data, error } = await alice
      .from('rt_projects')
      .select('title:name, id::text, env:meta->>env, n:meta->n, meta->>env, budget::int')
      .eq('name', 'Alpha');
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'Alpha', id: String(aliceProject), env: 'prod', n: 1, budget: 13 }]);
  });

  it('embeds to-many, to-one, aliased, nested, hinted and spread relations', async () => {
    const { data, error } = await alice
      .from('rt_projects')
      .select(
        'name, tasks:rt_tasks(title, author:rt_profiles!author_id(display_name)), settings:rt_settings(theme), ...rt_settings(theme)',
      )
      .eq('id', aliceProject)
      .order('id', { referencedTable: 'tasks' })
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      name: 'Alpha',
      tasks: [
        { title: 'one', author: { display_name: 'Alice' } },
        { title: 'two', author: { display_name: 'Bob' } },
        { title: 'three', author: { display_name: 'Alice' } },
      ],
      settings: { theme: 'dark' },
      theme: 'dark',
    });
    const toOne = await alice
      .from('rt_tasks')
      .select('title, project:rt_projects(name)')
      .eq('title', 'one')
      .single();
    expect(toOne.data).toEqual({ title: 'one', project: { name: 'Alpha' } });
  });

  it('filters, orders and limits embedded resources; !inner drops parents without a match', async () => {
    const filtered = await alice
      .from('rt_projects')
      .select('name, rt_tasks(title)')
      .eq('rt_tasks.done', false)
      .order('priority', { referencedTable: 'rt_tasks', ascending: false, nullsFirst: false })
      .limit(1, { referencedTable: 'rt_tasks' })
      .order('id');
    expect(filtered.error).toBeNull();
    expect(filtered.data).toEqual([
      { name: 'Alpha', rt_tasks: [{ title: 'one' }] },
      { name: 'beta', rt_tasks: [] },
      { name: 'Gamma', rt_tasks: [] },
    ]);
    const inner = await alice
      .from('rt_projects')
      .select('name, rt_tasks!inner(title)')
      .eq('rt_tasks.title', 'two');
    expect(inner.data).toEqual([{ name: 'Alpha', rt_tasks: [{ title: 'two' }] }]);
    const hasTasks = await alice.from('rt_projects').select('name, rt_tasks()').not('rt_tasks', 'is', null);
    expect(hasTasks.data).toEqual([{ name: 'Alpha' }]);
  });

  it('answers PGRST200 for no relationship and PGRST201 (300) for an ambiguous one', async () => {
    const none = await alice.from('rt_projects').select('rt_profiles(*)');
    expect(none.status).toBe(400);
    expect(none.error).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'rt_projects' and 'rt_profiles' in the schema cache",
    });
    const ambiguous = await alice.from('rt_tasks').select('rt_profiles(*)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error?.code).toBe('PGRST201');
    expect(ambiguous.error?.hint).toContain("'rt_profiles!rt_tasks_author_id_fkey'");
    const hinted = await alice
      .from('rt_tasks')
      .select('title, reviewer:rt_profiles!rt_tasks_reviewer_id_fkey(display_name)')
      .eq('title', 'one')
      .single();
    expect(hinted.data).toEqual({ title: 'one', reviewer: { display_name: 'Bob' } });
  });

  it('applies every filter operator', async () => {
    const names = async (q: PromiseLike<{ data: unknown; error: unknown }>) => {
      const { data, error } = await q;
      expect(error).toBeNull();
      return (data as { name: string }[]).map((r) => r.name).sort();
    };
    const p = () => alice.from('rt_projects').select('name');
    expect(await names(p().eq('name', 'Alpha'))).toEqual(['Alpha']);
    expect(await names(p().neq('name', 'Alpha'))).toEqual(['Gamma', 'beta']);
    expect(await names(p().gt('budget', 3))).toEqual(['Alpha']);
    expect(await names(p().gte('budget', 3))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().lt('budget', 12.5))).toEqual(['Gamma']);
    expect(await names(p().lte('budget', 12.5))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().like('name', '%amm%'))).toEqual(['Gamma']);
    expect(await names(p().like('name', '*amm*'))).toEqual(['Gamma']);
    expect(await names(p().ilike('name', 'a%'))).toEqual(['Alpha']);
    expect(await names(p().likeAnyOf('name', ['A%', 'G%']))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().ilikeAllOf('name', ['%a%', '%l%']))).toEqual(['Alpha']);
    expect(await names(p().match({ name: 'beta' }))).toEqual(['beta']);
    expect(await names(p().regexMatch('name', '^[A-Z]'))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().regexIMatch('name', '^b'))).toEqual(['beta']);
    expect(await names(p().is('budget', null))).toEqual(['beta']);
    expect(await names(p().not('budget', 'is', null))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().isDistinct('budget', 3))).toEqual(['Alpha', 'beta']);
    expect(await names(p().in('name', ['Alpha', 'beta', 'x,y']))).toEqual(['Alpha', 'beta']);
    expect(await names(p().not('name', 'in', '(Alpha,beta)'))).toEqual(['Gamma']);
    expect(await names(p().contains('tags', ['a']))).toEqual(['Alpha']);
    expect(await names(p().containedBy('tags', ['a', 'b']))).toEqual(['Alpha', 'Gamma', 'beta']);
    expect(await names(p().overlaps('tags', ['b', 'z']))).toEqual(['Alpha', 'beta']);
    expect(await names(p().contains('meta', { env: 'prod' }))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().eq('meta->>env', 'dev'))).toEqual(['beta']);
    expect(await names(p().textSearch('body', 'fat & cat'))).toEqual(['Alpha']);
    expect(await names(p().textSearch('body', 'lazy dog', { type: 'plain', config: 'english' }))).toEqual([
      'beta',
    ]);
    expect(await names(p().textSearch('body', 'lazy dog', { type: 'phrase' }))).toEqual(['beta']);
    expect(
      await names(p().textSearch('body', '"fat cat" or dog', { type: 'websearch', config: 'english' })),
    ).toEqual(['Alpha', 'beta']);
    expect(await names(p().or('name.eq.Alpha,budget.eq.3'))).toEqual(['Alpha', 'Gamma']);
    expect(await names(p().or('name.eq.beta,and(budget.gt.1,budget.lt.5)'))).toEqual(['Gamma', 'beta']);
    expect(await names(p().or('name.in.("Alpha","x,y"),not.and(budget.is.null,name.neq.zzz)'))).toEqual([
      'Alpha',
      'Gamma',
    ]);
    expect(await names(p().filter('name', 'not.ilike', 'a*'))).toEqual(['Gamma', 'beta']);
  });

  it('orders with nulls first/last, pages with range and counts with 206 Partial Content', async () => {
    const ordered = await alice
      .from('rt_projects')
      .select('name')
      .order('budget', { ascending: false, nullsFirst: true });
    expect(ordered.data).toEqual([{ name: 'beta' }, { name: 'Alpha' }, { name: 'Gamma' }]);
    const page = await alice.from('rt_projects').select('name', { count: 'exact' }).order('name').range(1, 1);
    expect(page.status).toBe(206);
    expect(page.count).toBe(3);
    expect(page.data).toEqual([{ name: 'Gamma' }]);
    const head = await alice.from('rt_projects').select('*', { count: 'exact', head: true });
    expect(head.count).toBe(3);
    expect(head.data).toBeNull();
    const res = await fetch(`${stack.url}/rest/v1/rt_projects?select=id&offset=0&limit=2`, {
      headers: { apikey: stack.status.service_role_key, prefer: 'count=exact' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('0-1/4');
  });

  it('single() answers an object or 406 PGRST116; maybeSingle() and csv() work', async () => {
    const one = await alice.from('rt_projects').select('name').eq('name', 'beta').single();
    expect(one.data).toEqual({ name: 'beta' });
    const none = await alice.from('rt_projects').select('name').eq('name', 'nope').single();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({
      code: 'PGRST116',
      details: 'The result contains 0 rows',
      message: 'Cannot coerce the result to a single JSON object',
    });
    const many = await alice.from('rt_projects').select('name').single();
    expect(many.error?.details).toBe('The result contains 3 rows');
    const maybe = await alice.from('rt_projects').select('name').eq('name', 'nope').maybeSingle();
    expect(maybe).toMatchObject({ data: null, error: null });
    const stripped = await alice.from('rt_projects').select('name, budget').eq('name', 'beta').stripNulls();
    expect(stripped.data).toEqual([{ name: 'beta' }]);
    const csv = await alice.from('rt_projects').select('name,budget').order('name').csv();
    expect(csv.data).toBe('name,budget\nAlpha,12.5\nGamma,3\nbeta,');
  });

  it("reads a view through the caller's row-level security", async () => {
    const { data } = await alice.from('rt_open_tasks').select('title').order('title');
    expect(data).toEqual([{ title: 'one' }, { title: 'three' }]);
    expect((await bob.from('rt_open_tasks').select('title')).data).toEqual([]);
  });

  it('refuses schemas other than public with 406 PGRST106', async () => {
    const { error, status } = await alice.schema('auth').from('users').select('*');
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: auth' });
  });

  it('answers 404 PGRST205 for an unknown table', async () => {
    const { error, status } = await alice.from('rt_nope').select('*');
    expect(status).toBe(404);
    expect(error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'public.rt_nope' in the schema cache",
    });
  });

  it("reloads its schema cache on NOTIFY pgrst, 'reload schema'", async () => {
    await stack.ctx.db.exec(
      `create table public.rt_late (id int primary key, label text); insert into public.rt_late values (1, 'late')`,
    );
    expect((await service.from('rt_late').select('*')).error?.code).toBe('PGRST205');
    await stack.ctx.db.exec(`notify pgrst, 'reload schema'`);
    let result = await service.from('rt_late').select('label');
    for (let i = 0; i < 50 && result.error; i++) {
      await new Promise((r) => setTimeout(r, 20));
      result = await service.from('rt_late').select('label');
    }
    expect(result.data).toEqual([{ label: 'late' }]);
  });
});
