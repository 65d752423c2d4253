import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { keyClient, startFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Resource Embedding" › "Embedding Views" (a view's columns are
// followed back to its tables' keys, so views embed tables, tables embed views and views embed views) and
// its EmbedDisambiguationSpec: "can specify all view column names that reference the same base column",
// "errs with multiple references to the same composite key columns in a view" (one candidate per view
// column), "embeds parent and then embeds children on a view" (a view of a table in an unexposed schema),
// "works with no ambiguity when there's an exposed view of the junction" (a junction in an unexposed
// schema, shown by a view, links many-to-many), whose error bodies these follow word for word.
let stack: RunningStack;
let db: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  db = keyClient(stack);
});
afterAll(() => stack.close());

describe('embedding through views', () => {
  it('embeds tables from a view (many-to-one) and a view from a table (one-to-many)', async () => {
    const fromView = await db
      .from('channel_feed')
      .select('id, users(username), channels(slug)')
      .lte('id', 2)
      .order('id');
    expect(fromView.error).toBeNull();
    expect(fromView.data).toEqual([
      { id: 1, users: { username: 'supabot' }, channels: { slug: 'public' } },
      { id: 2, users: { username: 'kiwicopple' }, channels: { slug: 'random' } },
    ]);
    const fromTable = await db
      .from('users')
      .select('username, channel_feed(id)')
      .eq('id', 1)
      .order('id', { referencedTable: 'channel_feed' });
    expect(fromTable.data).toEqual([{ username: 'supabot', channel_feed: [{ id: 1 }, { id: 4 }] }]);
  });

  it('embeds a view from a view, both ways, and through a view of a view', async () => {
    const { data, error } = await db.from('channel_feed').select('id, online_users(username)').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, online_users: { username: 'supabot' } },
      { id: 2, online_users: null },
      { id: 3, online_users: { username: 'awailas' } },
      { id: 4, online_users: { username: 'supabot' } },
    ]);
    const back = await db
      .from('online_users')
      .select('username, channel_feed(id)')
      .eq('id', 1)
      .order('id', { referencedTable: 'channel_feed' });
    expect(back.data).toEqual([{ username: 'supabot', channel_feed: [{ id: 1 }, { id: 4 }] }]);
    const nested = await db.from('public_feed').select('id, users(username)').order('id');
    expect(nested.data).toEqual([
      { id: 1, users: { username: 'supabot' } },
      { id: 3, users: { username: 'awailas' } },
    ]);
  });

  it('follows a grouped column of an aggregating view', async () => {
    const { data, error } = await db
      .from('channel_stats')
      .select('channel_id, messages, channels(slug)')
      .order('channel_id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { channel_id: 1, messages: 2, channels: { slug: 'public' } },
      { channel_id: 2, messages: 2, channels: { slug: 'random' } },
    ]);
  });

  it('answers 300 PGRST201 with one candidate per view column showing the key, and takes the column as hint', async () => {
    const { error, status } = await db.from('message_authors').select('id, users(username)');
    expect(status).toBe(300);
    expect(error).toEqual({
      code: 'PGRST201',
      details: [
        {
          cardinality: 'many-to-one',
          embedding: 'message_authors with users',
          relationship: 'messages_user_id_fkey using message_authors(author_id) and users(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'message_authors with users',
          relationship: 'messages_user_id_fkey using message_authors(poster_id) and users(id)',
        },
      ],
      hint: "Try changing 'users' to one of the following: 'users!messages_user_id_fkey', 'users!messages_user_id_fkey'. Find the desired relationship in the 'details' key.",
      message:
        "Could not embed because more than one relationship was found for 'message_authors' and 'users'",
    });
    const hinted = await db
      .from('message_authors')
      .select('id, author:users!author_id(username), poster_id(username)')
      .eq('id', 3);
    expect(hinted.error).toBeNull();
    expect(hinted.data).toEqual([
      { id: 3, author: { username: 'awailas' }, poster_id: { username: 'awailas' } },
    ]);
    const back = await db.from('users').select('username, message_authors!poster_id(id)').eq('id', 3);
    expect(back.data).toEqual([{ username: 'awailas', message_authors: [{ id: 3 }] }]);
  });

  it('links many-to-many through a view of a junction in an unexposed schema', async () => {
    const { data, error } = await db
      .from('users')
      .select('username, products(name)')
      .order('id')
      .order('id', { referencedTable: 'products' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { username: 'supabot', products: [{ name: 'pixel' }] },
      { username: 'kiwicopple', products: [{ name: 'pixel' }, { name: 'thinkpad' }] },
      { username: 'awailas', products: [{ name: 'thinkpad' }] },
      { username: 'dragarcia', products: [] },
    ]);
    const hinted = await db
      .from('products')
      .select('name, users!wishlists(username)')
      .eq('id', 3)
      .order('id', { referencedTable: 'users' });
    expect(hinted.data).toEqual([
      { name: 'thinkpad', users: [{ username: 'kiwicopple' }, { username: 'awailas' }] },
    ]);
    const items = await db
      .from('wishlists')
      .select('quantity, users(username), products(name)')
      .eq('product_id', 1)
      .order('user_id');
    expect(items.data).toEqual([
      { quantity: 1, users: { username: 'supabot' }, products: { name: 'pixel' } },
      { quantity: 2, users: { username: 'kiwicopple' }, products: { name: 'pixel' } },
    ]);
  });

  it('embeds parent and children through a view of a self-referencing table', async () => {
    const { data, error } = await db
      .from('folders')
      .select('id, parent_id(name), children:folders!parent_id(name)')
      .order('id')
      .order('id', { referencedTable: 'children' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, parent_id: null, children: [{ name: 'specs' }, { name: 'notes' }] },
      { id: 2, parent_id: { name: 'docs' }, children: [{ name: 'drafts' }] },
      { id: 3, parent_id: { name: 'specs' }, children: [] },
      { id: 4, parent_id: { name: 'docs' }, children: [] },
    ]);
  });

  it('answers 400 PGRST200 for a view that shows no key column', async () => {
    const { error, status } = await db.from('message_texts').select('message, users(username)');
    expect(status).toBe(400);
    expect(error).toEqual({
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'message_texts' and 'users' in the schema 'public', but no matches were found.",
      // The nearest by Levenshtein distance of the names as written (underscores count).
      hint: "Perhaps you meant 'message_authors' instead of 'message_texts'.",
      message: "Could not find a relationship between 'message_texts' and 'users' in the schema cache",
    });
  });
});
