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
let anon: SupabaseClient;

const raw = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${stack.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: stack.status.service_role_key, 'content-type': 'application/json', ...init.headers },
  });

beforeAll(async () => {
  stack = await startRestStack();
  await installRestFixture(stack);
  alice = userClient(stack, await userToken(stack, ALICE));
  bob = userClient(stack, await userToken(stack, BOB));
  anon = client(stack);
});
afterAll(() => stack.close());

describe('/rest/v1 mutations with supabase-js', () => {
  it('inserts with return=minimal (201, no body) and return=representation (201 + rows)', async () => {
    const minimal = await alice.from('rt_projects').insert({ name: 'm1' });
    expect(minimal).toMatchObject({ status: 201, data: null, error: null });
    const rep = await alice
      .from('rt_projects')
      .insert({ name: 'r1', budget: '10.50' })
      .select('name, budget, user_id')
      .single();
    expect(rep.status).toBe(201);
    expect(rep.data).toEqual({ name: 'r1', budget: 10.5, user_id: ALICE });
  });

  it('writes numbers beyond a double exactly: the body reaches Postgres as the client wrote it', async () => {
    const res = await raw('rt_projects?select=big,budget', {
      method: 'POST',
      headers: { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
      body: `{"name":"exact","user_id":"${ALICE}","big":9007199254740993,"budget":12345678901234567890.123456789}`,
    });
    expect(res.status).toBe(201);
    // Read as text: JSON.parse would round them again on the way back.
    const text = await res.text();
    expect(text).toContain('9007199254740993');
    expect(text).toContain('12345678901234567890.123456789');
    const patched = await raw('rt_projects?name=eq.exact&select=big', {
      method: 'PATCH',
      headers: { prefer: 'return=representation' },
      body: '{"big":9223372036854775807}',
    });
    expect(await patched.text()).toBe('[{"big":9223372036854775807}]');
  });

  it('bulk-inserts with columns=, missing=default and count', async () => {
    const { data, error, count, status } = await alice
      .from('rt_tasks')
      .insert([{ title: 'b1', done: true }, { title: 'b2' }], { count: 'exact', defaultToNull: false })
      .select('title, done, user_id');
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(count).toBe(2);
    expect(data).toEqual([
      { title: 'b1', done: true, user_id: ALICE },
      { title: 'b2', done: false, user_id: ALICE },
    ]);
    // One object (not an array) takes the column defaults the same way.
    const one = await alice
      .from('rt_tasks')
      .insert({ title: 'solo' }, { defaultToNull: false })
      .select('title, done, user_id')
      .single();
    expect(one).toMatchObject({ status: 201, data: { title: 'solo', done: false, user_id: ALICE } });
    // Without missing=default an absent key is NULL, as in PostgREST (23502 on a NOT NULL column).
    const nulls = await alice.from('rt_tasks').insert([{ title: 'c1', done: true }, { title: 'c2' }]);
    expect(nulls.status).toBe(400);
    expect(nulls.error?.code).toBe('23502');
  });

  it('upserts: merge-duplicates (201 when inserting, 200 when only updating) and ignore-duplicates', async () => {
    const created = await alice
      .from('rt_projects')
      .upsert({ id: 9001, name: 'u1' })
      .select('id, name')
      .single();
    expect(created.status).toBe(201);
    expect(created.data).toEqual({ id: 9001, name: 'u1' });
    const updated = await alice
      .from('rt_projects')
      .upsert({ id: 9001, name: 'u2' }, { onConflict: 'id' })
      .select('name');
    expect(updated.status).toBe(200);
    expect(updated.data).toEqual([{ name: 'u2' }]);
    const ignored = await alice
      .from('rt_projects')
      .upsert([{ id: 9001, name: 'u3' }], { ignoreDuplicates: true })
      .select('name');
    expect(ignored.data).toEqual([]);
    expect((await alice.from('rt_projects').select('name').eq('id', 9001).single()).data).toEqual({
      name: 'u2',
    });
  });

  it("updates (204 minimal, 200 representation) and deletes only the caller's rows", async () => {
    await alice.from('rt_projects').insert({ name: 'shared-name' });
    await bob.from('rt_projects').insert({ name: 'shared-name' });
    const minimal = await alice.from('rt_projects').update({ budget: 1 }).eq('name', 'shared-name');
    expect(minimal.status).toBe(204);
    const rep = await alice
      .from('rt_projects')
      .update({ budget: 2 })
      .eq('name', 'shared-name')
      .select('budget, user_id');
    expect(rep.status).toBe(200);
    expect(rep.data).toEqual([{ budget: 2, user_id: ALICE }]);
    // Bob's row with the same name is invisible to Alice's update and delete.
    const del = await alice.from('rt_projects').delete({ count: 'exact' }).eq('name', 'shared-name');
    expect(del).toMatchObject({ status: 204, count: 1 });
    const bobs = await bob.from('rt_projects').select('name, budget').eq('name', 'shared-name');
    expect(bobs.data).toEqual([{ name: 'shared-name', budget: null }]);
    const delRep = await bob.from('rt_projects').delete().eq('name', 'shared-name').select('name');
    expect(delRep).toMatchObject({ status: 200, data: [{ name: 'shared-name' }] });
  });

  it('refuses cross-tenant writes: 403 for a user, 401 for anon (42501)', async () => {
    const forged = await alice.from('rt_projects').insert({ name: 'evil', user_id: BOB });
    expect(forged.status).toBe(403);
    expect(forged.error).toMatchObject({ code: '42501' });
    expect(forged.error?.message).toContain('row-level security');
    const anonWrite = await anon.from('rt_projects').insert({ name: 'anon' });
    expect(anonWrite.status).toBe(401);
    expect(anonWrite.error?.code).toBe('42501');
    const moved = await alice.from('rt_projects').insert({ name: 'mine' }).select('id').single();
    const steal = await alice
      .from('rt_projects')
      .update({ user_id: BOB })
      .eq('id', (moved.data as { id: number }).id);
    expect(steal.status).toBe(403);
    const bobSees = await bob.from('rt_projects').select('name').eq('name', 'evil');
    expect(bobSees.data).toEqual([]);
  });

  it('maps constraint errors: 23505 and 23503 → 409, 23502 → 400', async () => {
    await alice.from('rt_projects').insert({ id: 9100, name: 'dup' });
    const dup = await alice.from('rt_projects').insert({ id: 9100, name: 'dup' });
    expect(dup.status).toBe(409);
    expect(dup.error?.code).toBe('23505');
    // Postgres hides the key from callers under row-level security; the service role sees it.
    const asService = await client(stack, 'service_role')
      .from('rt_projects')
      .insert({ id: 9100, name: 'dup', user_id: ALICE });
    expect(asService.error).toMatchObject({
      code: '23505',
      details: 'Key (id)=(9100) already exists.',
      message: 'duplicate key value violates unique constraint "rt_projects_pkey"',
    });
    const fk = await alice.from('rt_tasks').insert({ title: 'orphan', project_id: 424242 });
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe('23503');
    const notNull = await alice.from('rt_projects').insert({ name: null });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe('23502');
  });

  it('commits a minimal write with its statement, and a failed one leaves nothing behind', async () => {
    // return=minimal commits in the same backend call as the INSERT: a failure must still roll back all.
    const failed = await alice.from('rt_projects').insert([
      { id: 9300, name: 'first of a failing batch' },
      { id: 9300, name: 'duplicate' },
    ]);
    expect(failed.error?.code).toBe('23505');
    const after = await alice.from('rt_projects').select('id').eq('id', 9300);
    expect(after.data).toEqual([]);
    const ok = await alice.from('rt_projects').insert({ id: 9300, name: 'alone' });
    expect(ok.status).toBe(201);
    const stored = await alice.from('rt_projects').select('name').eq('id', 9300).single();
    expect(stored.data).toEqual({ name: 'alone' });
  });

  it('rolls back with Prefer: tx=rollback and enforces max-affected with handling=strict', async () => {
    const rolled = await alice.from('rt_projects').insert({ name: 'ghost' }).select('name').rollback();
    expect(rolled.data).toEqual([{ name: 'ghost' }]);
    expect((await alice.from('rt_projects').select('name').eq('name', 'ghost')).data).toEqual([]);
    await alice.from('rt_projects').insert([{ name: 'ma' }, { name: 'ma' }]);
    // What maxAffected(1) sends (its typing needs a PostgREST 13 client type).
    const tooMany = await raw('rt_projects?name=eq.ma', {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${await userToken(stack, ALICE)}`,
        apikey: stack.status.anon_key,
        prefer: 'handling=strict, max-affected=1',
      },
    });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { code: string }).code).toBe('PGRST124');
    expect((await alice.from('rt_projects').select('name').eq('name', 'ma')).data).toHaveLength(2);
  });

  it('limits PATCH and DELETE to the ordered first rows when asked', async () => {
    await alice.from('rt_projects').insert([
      { name: 'lim', budget: 1 },
      { name: 'lim', budget: 2 },
      { name: 'lim', budget: 3 },
    ]);
    const patched = await alice
      .from('rt_projects')
      .update({ body: 'top' })
      .eq('name', 'lim')
      .order('budget', { ascending: false })
      .limit(1)
      .select('budget');
    expect(patched.data).toEqual([{ budget: 3 }]);
    const deleted = await alice
      .from('rt_projects')
      .delete()
      .eq('name', 'lim')
      .order('budget')
      .limit(2)
      .select('budget');
    expect(deleted.data).toEqual([{ budget: 1 }, { budget: 2 }]);
    expect((await alice.from('rt_projects').select('budget, body').eq('name', 'lim')).data).toEqual([
      { budget: 3, body: 'top' },
    ]);
  });

  it('single() on a mutation of several rows is 406 and changes nothing', async () => {
    await alice.from('rt_projects').insert([{ name: 'sg' }, { name: 'sg' }]);
    const res = await alice.from('rt_projects').update({ budget: 7 }).eq('name', 'sg').select('id').single();
    expect(res.status).toBe(406);
    expect(res.error?.code).toBe('PGRST116');
    const after = await alice.from('rt_projects').select('budget').eq('name', 'sg');
    expect(after.data).toEqual([{ budget: null }, { budget: null }]);
  });

  it('returns embedded resources from a mutation and the Location of headers-only inserts', async () => {
    const p = await alice.from('rt_projects').insert({ name: 'with-tasks' }).select('id').single();
    const id = (p.data as { id: number }).id;
    const t = await alice
      .from('rt_tasks')
      .insert({ title: 'embedded', project_id: id })
      .select('title, rt_projects(name)')
      .single();
    expect(t.data).toEqual({ title: 'embedded', rt_projects: { name: 'with-tasks' } });
    const res = await raw('rt_projects', {
      method: 'POST',
      body: JSON.stringify({ id: 9200, name: 'loc', user_id: ALICE }),
      headers: { prefer: 'return=headers-only' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/rt_projects?id=eq.9200');
  });
});

describe('/rest/v1 RPC with supabase-js', () => {
  it('calls scalar, void, set-returning and table functions', async () => {
    expect((await alice.rpc('rt_add', { a: 2, b: 3 })).data).toBe(5);
    expect((await alice.rpc('rt_hello')).data).toBe('hello world');
    expect((await alice.rpc('rt_hello', { name: 'vigil' }, { get: true })).data).toBe('hello vigil');
    const noop = await alice.rpc('rt_noop');
    expect(noop).toMatchObject({ status: 204, data: null, error: null });
    expect((await alice.rpc('rt_numbers', { n: 4 })).data).toEqual([1, 2, 3, 4]);
    const stats = await bob.rpc('rt_stats').single();
    expect(stats.data).toEqual({ total: 0, names: null });
  });

  it('filters, orders, limits and counts set results; embeds from a setof-table function', async () => {
    await alice.from('rt_projects').insert([
      { name: 'rpc-a', budget: 1 },
      { name: 'rpc-b', budget: 2 },
    ]);
    const { data, error } = await alice
      .rpc('rt_my_projects')
      .select('name, budget')
      .like('name', 'rpc-%')
      .order('budget', { ascending: false })
      .limit(1);
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'rpc-b', budget: 2 }]);
    const counted = await alice.rpc('rt_my_projects', {}, { count: 'exact', head: true });
    expect(counted.count).toBeGreaterThan(2);
    const embedded = await alice.rpc('rt_my_projects').select('name, rt_tasks(title)').eq('name', 'rpc-a');
    expect(embedded.data).toEqual([{ name: 'rpc-a', rt_tasks: [] }]);
  });

  it('maps function errors: P0001 400, PTxyz status, GET of a writing function 405, unknown 404', async () => {
    const boom = await alice.rpc('rt_fail');
    expect(boom.status).toBe(400);
    expect(boom.error).toMatchObject({ code: 'P0001', message: 'boom', details: 'it broke' });
    const teapot = await alice.rpc('rt_teapot');
    expect(teapot.status).toBe(418);
    const readOnly = await alice.rpc('rt_create', { name: 'ro' }, { get: true });
    expect(readOnly.status).toBe(405);
    expect(readOnly.error?.code).toBe('25006');
    const created = await alice.rpc('rt_create', { name: 'rw' });
    expect(typeof created.data).toBe('number');
    const missing = await alice.rpc('rt_missing', { x: 1 });
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe('PGRST202');
    const wrongArgs = await alice.rpc('rt_add', { a: 1, c: 2 });
    expect(wrongArgs.error?.code).toBe('PGRST202');
  });
});
