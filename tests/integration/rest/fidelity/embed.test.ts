import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { keyClient, rest, startFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Resource Embedding" (disambiguation, self-referencing, spread,
// computed relationships) and its spec tests (EmbedDisambiguationSpec, ComputedRelsSpec, SpreadQueriesSpec),
// whose error bodies these follow word for word.
let stack: RunningStack;
let db: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  db = keyClient(stack);
});
afterAll(() => stack.close());

describe('embedding: several foreign keys to one table', () => {
  it('answers 300 PGRST201 with every candidate, sorted as PostgREST sorts them', async () => {
    const { error, status } = await db.from('products').select('name, categories(name)');
    expect(status).toBe(300);
    expect(error).toEqual({
      code: 'PGRST201',
      details: [
        {
          cardinality: 'many-to-one',
          embedding: 'products with categories',
          relationship: 'products_main_category_id_fkey using products(main_category_id) and categories(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'products with categories',
          relationship: 'products_sub_category using products(sub_category_id) and categories(id)',
        },
      ],
      hint: "Try changing 'categories' to one of the following: 'categories!products_main_category_id_fkey', 'categories!products_sub_category'. Find the desired relationship in the 'details' key.",
      message: "Could not embed because more than one relationship was found for 'products' and 'categories'",
    });
    const back = await db.from('categories').select('name, products(name)');
    expect(back.status).toBe(300);
    expect(back.error!.details).toEqual([
      {
        cardinality: 'one-to-many',
        embedding: 'categories with products',
        relationship: 'products_main_category_id_fkey using categories(id) and products(main_category_id)',
      },
      {
        cardinality: 'one-to-many',
        embedding: 'categories with products',
        relationship: 'products_sub_category using categories(id) and products(sub_category_id)',
      },
    ]);
  });

  it('is disambiguated by constraint, by column (as hint or as target) and aliased', async () => {
    const { data, error } = await db
      .from('products')
      .select(
        'name, main:categories!products_main_category_id_fkey(name), sub:categories!sub_category_id(name), main_category_id(id)',
      )
      .in('id', [1, 4])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'pixel', main: { name: 'electronics' }, sub: { name: 'phones' }, main_category_id: { id: 1 } },
      { name: 'cable', main: { name: 'electronics' }, sub: null, main_category_id: { id: 1 } },
    ]);
    const byTargetColumn = await db
      .from('categories')
      .select('name, products!sub_category_id(name)')
      .eq('id', 2)
      .order('id', { referencedTable: 'products' });
    expect(byTargetColumn.data).toEqual([
      { name: 'phones', products: [{ name: 'pixel' }, { name: 'iphone' }] },
    ]);
  });

  it('answers 400 PGRST200 with PostgREST details and a suggestion', async () => {
    const typo = await db.from('products').select('name, categorys(name)');
    expect(typo.status).toBe(400);
    expect(typo.error).toEqual({
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'products' and 'categorys' in the schema 'public', but no matches were found.",
      hint: "Perhaps you meant 'categories' instead of 'categorys'.",
      message: "Could not find a relationship between 'products' and 'categorys' in the schema cache",
    });
    const badHint = await db.from('products').select('name, categories!nope(name)');
    expect(badHint.error).toEqual({
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'products' and 'categories' using the hint 'nope' in the schema 'public', but no matches were found.",
      hint: null,
      message: "Could not find a relationship between 'products' and 'categories' in the schema cache",
    });
  });
});

describe('embedding: a self-referencing foreign key', () => {
  it('reads the table name as the children and the column name as the parent', async () => {
    const { data, error } = await db
      .from('collections')
      .select('name, parent:parent_id(name), children:collections(name)')
      .in('id', [1, 2])
      .order('id')
      .order('id', { referencedTable: 'children' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'root', parent: null, children: [{ name: 'photos' }, { name: 'videos' }] },
      { name: 'photos', parent: { name: 'root' }, children: [{ name: '2024' }] },
    ]);
  });

  it('takes the children by the referencing column as hint', async () => {
    const { data } = await db
      .from('collections')
      .select('name, subs:collections!parent_id(name)')
      .eq('id', 2);
    expect(data).toEqual([{ name: 'photos', subs: [{ name: '2024' }] }]);
  });
});

describe('embedding: computed relationships', () => {
  it('embeds a setof function as to-many and a single-row or rows-1 function as to-one', async () => {
    const { data, error } = await db
      .from('channels')
      .select('slug, creator(username), latest_message(id, message)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        slug: 'public',
        creator: { username: 'supabot' },
        latest_message: { id: 3, message: 'Supabase Launch Week is on fire' },
      },
      {
        slug: 'random',
        creator: { username: 'kiwicopple' },
        latest_message: { id: 4, message: 'hello, "quoted", and\nmulti-line' },
      },
      { slug: 'empty', creator: { username: 'supabot' }, latest_message: null },
    ]);
  });

  it('takes filters, order, column selection and !inner on the computed resource', async () => {
    const { data, error } = await db
      .from('users')
      .select('username, user_messages!inner(id, channel_id)')
      .eq('user_messages.channel_id', 2)
      .order('id')
      .order('id', { referencedTable: 'user_messages', ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { username: 'supabot', user_messages: [{ id: 4, channel_id: 2 }] },
      { username: 'kiwicopple', user_messages: [{ id: 2, channel_id: 2 }] },
    ]);
  });
});

describe('embedding: spread', () => {
  it('spreads a to-one relation into the parent object', async () => {
    const { data, error } = await db
      .from('messages')
      .select('id, ...users(username, status), ...channels(channel:slug)')
      .lte('id', 2)
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, username: 'supabot', status: 'ONLINE', channel: 'public' },
      { id: 2, username: 'kiwicopple', status: 'OFFLINE', channel: 'random' },
    ]);
  });

  it('spreads a to-many relation into arrays per column (PostgREST 13)', async () => {
    const { data, error } = await db
      .from('channels')
      .select('slug, ...messages(ids:id, likes)')
      .order('id')
      .order('id', { referencedTable: 'messages' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: 'public', ids: [1, 3], likes: [3, 5] },
      { slug: 'random', ids: [2, 4], likes: [0, 1] },
      { slug: 'empty', ids: [], likes: [] },
    ]);
  });
});

describe('embedding: the body as PostgREST writes it', () => {
  // PostgREST 12/13 cast every embed to jsonb (row_to_json(…)::jsonb, json_agg(…)::jsonb), so an embedded
  // object's keys come in jsonb's order (shorter first), printed as jsonb prints them, whatever the select's
  // order; the top level keeps the select's order.
  it('renders to-one and to-many embeds as jsonb', async () => {
    const one = await rest(stack, 'channels?select=slug,users(username,id)&id=eq.1');
    expect(await one.text()).toBe('[{"slug":"public","users":{"id": 1, "username": "supabot"}}]');
    const many = await rest(stack, 'users?select=username,messages(message,id)&id=eq.3');
    expect(await many.text()).toBe(
      '[{"username":"awailas","messages":[{"id": 3, "message": "Supabase Launch Week is on fire"}]}]',
    );
  });
});
