import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { rest, startFidelityStack, stopFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13 (Response.hs; its InsertSpec, UpdateSpec, DeleteSpec and QuerySpec
// "Canonical location"): every insert, update and delete answers a Content-Range (`*/*` uncounted; an
// update's range is 0-(rows-1)), PUT none; a table read names its canonical location (parameters sorted by
// name, repeated names joined with commas, everything but letters, digits and -_.~ percent-encoded).
let stack: RunningStack;
let service: SupabaseClient;
let seen: Headers | null = null;

beforeAll(async () => {
  stack = await startFidelityStack();
  // The unmodified supabase-js, with a fetch that keeps the last response's headers for the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fixture has no generated types
  service = createClient<any>(stack.url, stack.status.service_role_key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: {
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        seen = res.headers;
        return res;
      },
    },
  });
});
afterAll(() => stopFidelityStack(stack));

const header = (name: string) => seen?.get(name) ?? null;
const asService = (path: string, init: RequestInit = {}) =>
  rest(stack, path, {
    ...init,
    headers: { authorization: `Bearer ${stack.status.service_role_key}`, ...init.headers },
  });

describe('Content-Range on writes', () => {
  it('inserts and upserts: */* uncounted, */<rows> counted, with any return', async () => {
    const minimal = await service.from('tickets').insert({ title: 'h1' });
    expect(minimal).toMatchObject({ status: 201, error: null });
    expect(header('content-range')).toBe('*/*');
    const counted = await service
      .from('tickets')
      .insert([{ title: 'h2' }, { title: 'h3' }], { count: 'exact' });
    expect(counted).toMatchObject({ status: 201, count: 2 });
    expect(header('content-range')).toBe('*/2');
    const represented = await service.from('tickets').insert({ title: 'h4' }).select('title');
    expect(represented.data).toEqual([{ title: 'h4' }]);
    expect(header('content-range')).toBe('*/*');
    const upserted = await service
      .from('languages')
      .upsert(
        [
          { name: 'Java', rank: 1 },
          { name: 'Rust', rank: 4 },
        ],
        { count: 'exact' },
      )
      .select('name');
    expect(upserted.status).toBe(201);
    expect(header('content-range')).toBe('*/2');
  });

  it('updates: 0-<rows-1>/*, counted 0-<rows-1>/<rows>, */* and */0 when nothing matched', async () => {
    const two = await service.from('users').update({ catchphrase: 'x' }).in('id', [1, 2]);
    expect(two.status).toBe(204);
    expect(header('content-range')).toBe('0-1/*');
    const counted = await service
      .from('users')
      .update({ catchphrase: 'y' }, { count: 'exact' })
      .in('id', [1, 2]);
    expect(counted).toMatchObject({ status: 204, count: 2 });
    expect(header('content-range')).toBe('0-1/2');
    const one = await service.from('users').update({ catchphrase: 'z' }).eq('id', 1).select('id');
    expect(one).toMatchObject({ status: 200, data: [{ id: 1 }] });
    expect(header('content-range')).toBe('0-0/*');
    await service.from('users').update({ catchphrase: 'z' }).eq('id', 999);
    expect(header('content-range')).toBe('*/*');
    await service.from('users').update({ catchphrase: 'z' }, { count: 'exact' }).eq('id', 999);
    expect(header('content-range')).toBe('*/0');
  });

  it('deletes: */* uncounted and */<rows> counted, with any return', async () => {
    await service.from('tickets').insert([{ title: 'd1' }, { title: 'd2' }, { title: 'd3' }]);
    const plain = await service.from('tickets').delete().eq('title', 'd1');
    expect(plain.status).toBe(204);
    expect(header('content-range')).toBe('*/*');
    const counted = await service.from('tickets').delete({ count: 'exact' }).in('title', ['d2', 'd3']);
    expect(counted).toMatchObject({ status: 204, count: 2 });
    expect(header('content-range')).toBe('*/2');
    const none = await service.from('tickets').delete().eq('title', 'none').select('id');
    expect(none).toMatchObject({ status: 200, data: [] });
    expect(header('content-range')).toBe('*/*');
  });

  it('sends none on PUT', async () => {
    const res = await asService('languages?name=eq.Go', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', prefer: 'count=exact' },
      body: JSON.stringify({ name: 'Go', rank: 8 }),
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('content-range')).toBeNull();
  });
});

describe('Content-Location on reads', () => {
  it('names the table and the parameters sorted by name (supabase-js)', async () => {
    const read = await service.from('users').select('id,username').gt('id', 0).order('id');
    expect(read.error).toBeNull();
    expect(header('content-location')).toBe('/users?id=gt.0&order=id.asc&select=id%2Cusername');
  });

  it('omits the question mark without parameters', async () => {
    const res = await asService('users');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-location')).toBe('/users');
  });

  it('joins repeated names with commas and encodes as PostgREST does, on GET and HEAD', async () => {
    const path = 'users?select=id&id=lt.4&id=gt.1&username=not.in.(a+b,c)&catchphrase=eq.caf%C3%A9';
    const expected =
      '/users?catchphrase=eq.caf%C3%83%C2%A9&id=lt.4,gt.1&select=id&username=not.in.%28a%20b%2Cc%29';
    const get = await asService(path);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-location')).toBe(expected);
    const head = await asService(path, { method: 'HEAD' });
    expect(head.headers.get('content-location')).toBe(expected);
  });

  it('is sent with a 416 too, and never for functions or writes', async () => {
    const past = await asService('users?offset=100', { headers: { prefer: 'count=exact' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-location')).toBe('/users?offset=100');
    const rpc = await asService('rpc/no_args');
    expect(rpc.headers.get('content-location')).toBeNull();
    await service.from('tickets').insert({ title: 'w' });
    expect(header('content-location')).toBeNull();
  });
});
