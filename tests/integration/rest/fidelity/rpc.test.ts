import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { keyClient, rest, startFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Functions as RPC" and its RpcSpec (overloads, PGRST202/203
// bodies, counts on functions, single-row and scalar shapes, the call running exactly once).
let stack: RunningStack;
let anon: SupabaseClient;
let service: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  anon = keyClient(stack);
  service = keyClient(stack, 'service_role');
});
afterAll(() => stack.close());

describe('RPC: choosing among overloads', () => {
  it('picks the overload whose named arguments are given, by POST and by GET', async () => {
    expect((await anon.rpc('add', { a: 1, b: 2 })).data).toBe(3);
    expect((await anon.rpc('add', { a: 1, b: 2, c: 3 })).data).toBe(6);
    expect((await anon.rpc('add', { a: 1, b: 2, c: 3 }, { get: true })).data).toBe(6);
    const one = await anon.rpc('search_messages', { term: 'hello' }).select('id');
    expect(one.data).toEqual([{ id: 1 }, { id: 4 }]);
    const two = await anon.rpc('search_messages', { term: 'hello', channel: 2 }).select('id');
    expect(two.data).toEqual([{ id: 4 }]);
  });

  it('uses defaults, no arguments, and the single unnamed json or text parameter', async () => {
    expect((await anon.rpc('greeting', {}, { get: true })).data).toBe('hello world');
    expect((await anon.rpc('greeting', { name: 'you' })).data).toBe('hello you');
    expect((await anon.rpc('no_args')).data).toBe('none');
    expect((await anon.rpc('echo', { x: 1, y: [2, 'three'] })).data).toEqual({ x: 1, y: [2, 'three'] });
    const text = await rest(stack, 'rpc/plain_text', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'raw words',
    });
    expect(await text.json()).toBe('got raw words');
  });

  it('answers 300 PGRST203 only where PostgREST cannot choose either', async () => {
    const { error, status } = await anon.rpc('shout', { word: 'x' });
    expect(status).toBe(300);
    expect(error).toEqual({
      code: 'PGRST203',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      message:
        'Could not choose the best candidate function between: public.shout(word => integer), public.shout(word => text)',
    });
  });

  it('answers 404 PGRST202 with the arguments sorted and PostgREST details', async () => {
    const post = await anon.rpc('add', { z: 1, a: 2 });
    expect(post.status).toBe(404);
    expect(post.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.add(a, z) in the schema cache',
      details:
        'Searched for the function public.add with parameters a, z or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
    const get = await anon.rpc('zzz', {}, { get: true });
    expect(get.error).toEqual({
      code: 'PGRST202',
      message: 'Could not find the function public.zzz without parameters in the schema cache',
      details:
        'Searched for the function public.zzz without parameters, but no matches were found in the schema cache.',
      hint: null,
    });
    const typo = await anon.rpc('serch_messages', { term: 'x' });
    expect(typo.error?.hint).toBe('Perhaps you meant to call the function public.search_messages');
  });

  it('takes a table row or a view row as an argument', async () => {
    const label = await anon.rpc('channel_label', { c: { id: 1, slug: 'public', created_by: 1 } });
    expect(label.error).toBeNull();
    expect(label.data).toBe('public#1');
    const feed = await anon.rpc('feed_label', { f: { id: 7, message: 'hi', channel_id: 1, user_id: 2 } });
    expect(feed.error).toBeNull();
    expect(feed.data).toBe('7:hi');
  });

  it('cannot fill a single unnamed integer parameter from any body (404 PGRST202)', async () => {
    // findProc passes a body whole only to a json/jsonb (JSON), text, xml or bytea parameter.
    const json = await anon.rpc('double_it', { x: 2 });
    expect(json.status).toBe(404);
    expect(json.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.double_it(x) in the schema cache',
      details:
        'Searched for the function public.double_it with parameter x or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
    const text = await rest(stack, 'rpc/double_it', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '2',
    });
    expect(text.status).toBe(404);
    expect(await text.json()).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.double_it in the schema cache',
      details:
        'Searched for the function public.double_it with a single unnamed text parameter, but no matches were found in the schema cache.',
    });
  });
});

describe('RPC: result shapes with select, filters, order and range', () => {
  it('returns a scalar, a composite value and a set of scalars in the order the function gives', async () => {
    expect((await anon.rpc('channel_count')).data).toBe(3);
    expect((await anon.rpc('point_of', { x: 1, y: 2 })).data).toEqual({ x: 1, y: 2 });
    expect((await anon.rpc('countdown', { n: 3 })).data).toEqual([3, 2, 1]);
    const rows = await anon.rpc('messages_between', { lo: 1, hi: 4 }).select('id');
    expect(rows.data).toEqual([{ id: 4 }, { id: 3 }, { id: 2 }, { id: 1 }]);
  });

  it('returns one row of a table as an object, with embeds', async () => {
    const { data, error } = await anon
      .rpc('user_by_name', { name: 'supabot' })
      .select('username, channels(slug)')
      .order('id', { referencedTable: 'channels' });
    expect(error).toBeNull();
    expect(data).toEqual({ username: 'supabot', channels: [{ slug: 'public' }, { slug: 'empty' }] });
  });

  it('filters, orders, pages and embeds the rows of a set-returning function', async () => {
    const { data, error } = await anon
      .rpc('search_messages', { term: 'e' })
      .select('id, users(username)')
      .gt('id', 1)
      .order('id', { ascending: false })
      .range(0, 1);
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 4, users: { username: 'supabot' } },
      { id: 3, users: { username: 'awailas' } },
    ]);
    // A function returning a view's rows embeds through the view's keys, as a read of the view does.
    const view = await anon.rpc('feed_of', { channel: 1 }).select('id, users(username)');
    expect(view.error).toBeNull();
    expect(view.data).toEqual([
      { id: 3, users: { username: 'awailas' } },
      { id: 1, users: { username: 'supabot' } },
    ]);
    const filtered = await anon.rpc('feed_of', { channel: 2 }).select('message').eq('user_id', 2);
    expect(filtered.data).toEqual([
      { message: 'Perfection is attained, not when there is nothing more to add' },
    ]);
    const table = await anon.rpc('name_pairs').select('initial').eq('username', 'kiwicopple');
    expect(table.data).toEqual([{ initial: 'k' }]);
    // GET: a parameter with an operator is a filter on the result, one without is an argument.
    const res = await rest(stack, 'rpc/messages_between?lo=1&hi=4&id=gt.2&select=id');
    expect(await res.json()).toEqual([{ id: 4 }, { id: 3 }]);
  });
});

describe('RPC: count and head', () => {
  it('counts the rows of a set-returning function (exact, planned and estimated count exactly)', async () => {
    for (const count of ['exact', 'planned', 'estimated'] as const) {
      const page = await anon.rpc('search_messages', { term: 'e' }, { count }).select('id').range(0, 1);
      expect(page.status).toBe(206);
      expect(page.count).toBe(4);
      expect(page.data).toEqual([{ id: 1 }, { id: 2 }]);
    }
    const head = await anon.rpc('search_messages', { term: 'e' }, { head: true, count: 'exact' });
    expect(head.status).toBe(200);
    expect(head.data).toBeNull();
    expect(head.count).toBe(4);
  });

  it('counts one row for a function returning one value, with Content-Range 0-0/1', async () => {
    const res = await rest(stack, 'rpc/channel_count', { headers: { prefer: 'count=exact' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('0-0/1');
    expect(await res.json()).toBe(3);
    const scalar = await anon.rpc('channel_count', {}, { count: 'exact' });
    expect(scalar).toMatchObject({ data: 3, count: 1 });
  });

  it('calls a volatile function once, counted or not, and refuses it on GET (read-only, 405)', async () => {
    const likes = async () =>
      (await anon.from('messages').select('likes').eq('channel_id', 1).order('id')).data;
    expect(await likes()).toEqual([{ likes: 3 }, { likes: 5 }]);
    const counted = await service.rpc('touch_channel', { id: 1 }, { count: 'exact' }).select('id');
    expect(counted).toMatchObject({ data: [{ id: 1 }, { id: 3 }], count: 2 });
    expect(await likes()).toEqual([{ likes: 4 }, { likes: 6 }]);
    const get = await service.rpc('touch_channel', { id: 1 }, { get: true });
    expect(get.status).toBe(405);
    expect(get.error?.code).toBe('25006');
    expect(await likes()).toEqual([{ likes: 4 }, { likes: 6 }]);
  });
});
