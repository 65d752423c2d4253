import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import {
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 14 (the version the Supabase CLI runs) and supabase-js's own suites: computed
// fields, the aliases Postgres names in its errors, and which functions with unnamed parameters are callable.
let stack: RunningStack;
let anon: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  anon = keyClient(stack);
});
afterAll(() => stopFidelityStack(stack));

describe('computed fields: a function of a row, read like a column', () => {
  it('selects, filters and orders by one on a table', async () => {
    const { data, error } = await anon
      .from('messages')
      .select('id, preview')
      .in('id', [1, 2, 3])
      .neq('preview', 'Perfe')
      .order('preview', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 3, preview: 'Supab' },
      { id: 1, preview: 'Hello' },
    ]);
  });

  it('selects one in an embedded resource and in the rows of a function', async () => {
    const embedded = await anon
      .from('channels')
      .select('slug, messages(id, preview)')
      .eq('id', 1)
      .order('id', { referencedTable: 'messages' })
      .single();
    expect(embedded.error).toBeNull();
    expect(embedded.data).toEqual({
      slug: 'public',
      messages: [
        { id: 1, preview: 'Hello' },
        { id: 3, preview: 'Supab' },
      ],
    });
    const called = await anon.rpc('search_messages', { term: 'hello' }).select('id, preview');
    expect(called.error).toBeNull();
    expect(called.data).toEqual([
      { id: 1, preview: 'Hello' },
      { id: 4, preview: 'hello' },
    ]);
  });
});

describe("unknown columns: Postgres's 42703, naming PostgREST's aliases", () => {
  it('names the table at the top, `<table>_<depth>` in an embed and the returned table in a call', async () => {
    const top = await anon.from('users').select('nope');
    expect(top.status).toBe(400);
    expect(top.error).toEqual({
      code: '42703',
      details: null,
      hint: null,
      message: 'column users.nope does not exist',
    });
    const embedded = await anon.from('users').select('username, messages(sum)');
    expect(embedded.error).toMatchObject({ code: '42703', message: 'column messages_1.sum does not exist' });
    const nested = await anon.from('channels').select('slug, messages(id, users(nope))');
    expect(nested.error).toMatchObject({ code: '42703', message: 'column users_2.nope does not exist' });
    const called = await anon.rpc('search_messages', { term: 'x' }).select('nope');
    expect(called.error).toMatchObject({ code: '42703', message: 'column messages.nope does not exist' });
  });

  it('passes on the hint Postgres gives for a near miss', async () => {
    const { error } = await anon.from('users').select('usernme');
    expect(error).toEqual({
      code: '42703',
      details: null,
      hint: 'Perhaps you meant to reference the column "users.username".',
      message: 'column users.usernme does not exist',
    });
  });
});

describe('one relation embedded twice under the same name', () => {
  it('fails as under PostgREST (both lateral joins get one alias); aliases tell them apart', async () => {
    const same = await anon
      .from('products')
      .select('categories!main_category_id(name), categories!sub_category_id(name)')
      .eq('id', 1);
    expect(same.status).toBe(400);
    expect(same.error).toEqual({
      code: '42712',
      details: null,
      hint: null,
      message: 'table name "products_categories_1" specified more than once',
    });
    const aliased = await anon
      .from('products')
      .select('main:categories!main_category_id(name), sub:categories!sub_category_id(name)')
      .eq('id', 1)
      .single();
    expect(aliased.error).toBeNull();
    expect(aliased.data).toEqual({ main: { name: 'electronics' }, sub: { name: 'phones' } });
  });

  it('suggests no other target when the one named exists and only the hint failed', async () => {
    const { error } = await anon.from('messages').select('users!nope(username)');
    expect(error).toEqual({
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'messages' and 'users' using the hint 'nope' in the schema 'public', but no matches were found.",
      hint: null,
      message: "Could not find a relationship between 'messages' and 'users' in the schema cache",
    });
  });
});

describe('functions with unnamed parameters', () => {
  it('lists only those a body can fill: none, or one text (a lone integer or boolean is left out)', async () => {
    const { error, status } = await anon.rpc('pick');
    expect(status).toBe(300);
    expect(error).toEqual({
      code: 'PGRST203',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      message: 'Could not choose the best candidate function between: public.pick(), public.pick( => text)',
    });
  });

  it('passes the body, or the GET parameters as one JSON object, to the lone unnamed parameter', async () => {
    expect((await anon.rpc('pick', { '': 'x' })).data).toBe('text: {"":"x"}');
    expect((await anon.rpc('pick', { '': true })).data).toBe('text: {"":true}');
    expect((await anon.rpc('pick', { '': 'x' }, { get: true })).data).toBe('text: {"":"x"}');
    const plain = await rest(stack, 'rpc/pick', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'raw',
    });
    expect(await plain.json()).toBe('text: raw');
  });

  it('answers 404 for a computed field called as a function, with no suggestion of a far name', async () => {
    const { error, status } = await anon.rpc('preview');
    expect(status).toBe(404);
    expect(error).toEqual({
      code: 'PGRST202',
      details:
        'Searched for the function public.preview without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: null,
      message: 'Could not find the function public.preview without parameters in the schema cache',
    });
  });
});
