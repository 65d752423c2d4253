import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import {
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Ordering by related columns" (to-one embeds only) and its
// QuerySpec/Plan.hs addRelatedOrders: `order=rel(col)` names an embedded resource by its alias or name,
// orders by the column as that resource selects it (nulls as Postgres orders them), at any level; a to-many
// resource is 400 PGRST118, one not embedded 400 PGRST108, a column the embed does not select Postgres's 42703
// on PostgREST's alias `<parent>_<resource>_<depth>`.
let stack: RunningStack;
let anon: SupabaseClient;

const names = (rows: unknown) => (rows as { name: string }[] | null)?.map((r) => r.name);

beforeAll(async () => {
  stack = await startFidelityStack();
  anon = keyClient(stack);
});
afterAll(() => stopFidelityStack(stack));

describe('order by a to-one embedded column', () => {
  it('orders by a many-to-one resource, named by its alias', async () => {
    const { data, error } = await anon
      .from('messages')
      .select('id, author:users(username)')
      .order('author(username)', { ascending: false })
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, author: { username: 'supabot' } },
      { id: 4, author: { username: 'supabot' } },
      { id: 2, author: { username: 'kiwicopple' } },
      { id: 3, author: { username: 'awailas' } },
    ]);
  });

  it('orders rows without a related row as nulls (last ascending, or as asked)', async () => {
    const asc = await anon
      .from('products')
      .select('name, sub:categories!products_sub_category(name)')
      .order('sub(name)')
      .order('id');
    expect(names(asc.data)).toEqual(['thinkpad', 'pixel', 'iphone', 'cable']);
    const first = await anon
      .from('products')
      .select('name, sub:categories!products_sub_category(name)')
      .order('sub(name)', { ascending: false, nullsFirst: true })
      .order('id');
    expect(names(first.data)).toEqual(['cable', 'pixel', 'iphone', 'thinkpad']);
  });

  it('orders by a self-reference, a to-one spread and inside an embedded resource', async () => {
    const tree = await anon
      .from('collections')
      .select('name, parent:parent_id(name)')
      .order('parent(name)', { nullsFirst: true })
      .order('name');
    expect(names(tree.data)).toEqual(['root', '2024', 'photos', 'videos']);
    const spread = await anon
      .from('messages')
      .select('id, ...users(username)')
      .order('users(username)')
      .order('id');
    expect(spread.data).toEqual([
      { id: 3, username: 'awailas' },
      { id: 2, username: 'kiwicopple' },
      { id: 1, username: 'supabot' },
      { id: 4, username: 'supabot' },
    ]);
    const nested = await anon
      .from('channels')
      .select('slug, messages(id, users(username))')
      .order('users(username)', { referencedTable: 'messages', ascending: false })
      .order('id');
    expect(nested.error).toBeNull();
    const channels = nested.data as { slug: string; messages: { id: number }[] }[];
    expect(channels.map((c) => [c.slug, c.messages.map((m) => m.id)])).toEqual([
      ['public', [1, 3]],
      ['random', [4, 2]],
      ['empty', []],
    ]);
  });
});

describe('order by a JSON path in a to-one resource', () => {
  it("orders by a JSON path into a to-one resource's column (here a nested embed)", async () => {
    const res = await rest(
      stack,
      'messages?select=id,channel:channels(slug,creator:users(username))&order=channel(creator->>username).desc,id',
    );
    expect(res.status).toBe(200);
    const rows = (await res.json()) as { id: number }[];
    // Channel 1 (messages 1, 3) was created by supabot, channel 2 (messages 2, 4) by kiwicopple.
    expect(rows.map((r) => r.id)).toEqual([1, 3, 2, 4]);
  });
});

describe('related orders PostgREST refuses', () => {
  it('refuses a to-many resource with PGRST118', async () => {
    const { error, status } = await anon.from('channels').select('slug, messages(id)').order('messages(id)');
    expect(status).toBe(400);
    expect(error).toEqual({
      code: 'PGRST118',
      details: "'channels' and 'messages' do not form a many-to-one or one-to-one relationship",
      hint: null,
      message: "A related order on 'messages' is not possible",
    });
  });

  it('refuses a resource the select does not embed (or embeds under another name) with PGRST108', async () => {
    for (const select of ['id', 'id, author:users(username)']) {
      const { error, status } = await anon.from('messages').select(select).order('users(username)');
      expect(status).toBe(400);
      expect(error).toEqual({
        code: 'PGRST108',
        details: null,
        hint: "Verify that 'users' is included in the 'select' query parameter.",
        message: "'users' is not an embedded resource in this request",
      });
    }
  });

  it('answers Postgres 42703 on PostgREST alias for a column the embed does not select', async () => {
    const res = await rest(stack, 'messages?select=id,users(username)&order=users(status)');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: '42703',
      message: 'column messages_users_1.status does not exist',
    });
  });
});
