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

// Expectations from PostgREST 12/13: docs "Aggregate Functions" and its AggregateFunctionsSpec (count()
// with and without a column, aliases and casts, automatic GROUP BY, aggregates inside embeds, the legacy
// `count` column, PGRST123 while db-aggregates-enabled is off, its default as on Supabase). Aggregates inside a
// to-one spread follow PostgREST 13 (docs "Aggregate Functions" › "Spreading aggregates"; spec "performing
// aggregations on spreaded fields from an embedded resource"): they are applied in the groups of the nearest
// level that is no to-one spread, grouped by the other selected and spread columns; `count()` there counts
// the rows that have a related row.
let stack: RunningStack;
let db: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  db = keyClient(stack);
});
afterAll(() => stopFidelityStack(stack));

const byKey = <T extends Record<string, unknown>>(rows: T[] | null, key: string) =>
  [...(rows ?? [])].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

describe('aggregates while db-aggregates-enabled is off (the default)', () => {
  it('refuses them with 400 PGRST123, at the top and inside embeds', async () => {
    for (const select of ['count()', 'likes.sum()', 'slug, messages(likes.max())', '...users(id.count())']) {
      const { error, status } = await db
        .from(select.startsWith('slug') ? 'channels' : 'messages')
        .select(select);
      expect(status).toBe(400);
      expect(error).toEqual({
        code: 'PGRST123',
        details: null,
        hint: null,
        message: 'Use of aggregate functions is not allowed',
      });
    }
  });

  it('still counts with the legacy `count` column, which is no aggregate function', async () => {
    const { data, error } = await db.from('channels').select('slug, messages(count)').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: 'public', messages: [{ count: 2 }] },
      { slug: 'random', messages: [{ count: 2 }] },
      { slug: 'empty', messages: [{ count: 0 }] },
    ]);
  });
});

describe('aggregates once enabled (alter role authenticator set pgrst.db_aggregates_enabled)', () => {
  beforeAll(() => configure(stack, { aggregates: true }));

  it('counts rows with count(), aliased and cast', async () => {
    expect((await db.from('messages').select('count()')).data).toEqual([{ count: 4 }]);
    expect((await db.from('messages').select('n:count()::text')).data).toEqual([{ n: '4' }]);
    expect((await db.from('users').select('catchphrase.count()')).data).toEqual([{ count: 3 }]);
  });

  it('groups by every other selected column, with Postgres number formatting', async () => {
    const res = await rest(
      stack,
      'messages?select=channel_id,likes.sum(),likes.avg(),likes.min(),likes.max()&order=channel_id',
    );
    expect(await res.text()).toBe(
      '[{"channel_id":1,"sum":8,"avg":4.0000000000000000,"min":3,"max":5},' +
        '{"channel_id":2,"sum":1,"avg":0.50000000000000000000,"min":0,"max":1}]',
    );
    const { data } = await db.from('messages').select('lang:data->>lang, n:count()');
    expect(byKey(data, 'lang')).toEqual([
      { lang: 'en', n: 2 },
      { lang: null, n: 2 },
    ]);
    const cast = await db.from('messages').select('top:likes::text.max(), total:likes.sum()::text');
    expect(cast.data).toEqual([{ top: '5', total: '9' }]);
  });

  it('aggregates inside embeds and groups by an embedded resource', async () => {
    const inside = await db.from('channels').select('slug, messages(likes.sum())').order('id');
    expect(inside.data).toEqual([
      { slug: 'public', messages: [{ sum: 8 }] },
      { slug: 'random', messages: [{ sum: 1 }] },
      { slug: 'empty', messages: [{ sum: null }] },
    ]);
    const grouped = await db.from('messages').select('total:likes.sum(), channels(slug)');
    expect(byKey(grouped.data, 'total')).toEqual([
      { total: 1, channels: { slug: 'random' } },
      { total: 8, channels: { slug: 'public' } },
    ]);
  });

  it('answers a missing column with 42703 and an aggregate without one as a missing relationship', async () => {
    const missing = await db.from('messages').select('nope.sum()');
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: '42703', message: 'column messages.nope does not exist' });
    const bare = await db.from('messages').select('sum()');
    expect(bare.status).toBe(400);
    expect(bare.error).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'messages' and 'sum' in the schema cache",
    });
  });

  it('applies aggregates of a to-one spread in the parent, grouped by the spread columns', async () => {
    const grouped = await db.from('messages').select('total_likes:likes.sum(), ...users(status, n:count())');
    expect(grouped.error).toBeNull();
    expect(byKey(grouped.data, 'status')).toEqual([
      { total_likes: 0, status: 'OFFLINE', n: 1 },
      { total_likes: 9, status: 'ONLINE', n: 3 },
    ]);
    expect((await db.from('messages').select('...users(n:count())')).data).toEqual([{ n: 4 }]);
    expect((await db.from('messages').select('...channels(id.sum())')).data).toEqual([{ sum: 6 }]);
    const parents = await db.from('collections').select('...parent_id(name, n:count())');
    expect(byKey(parents.data, 'name')).toEqual([
      { name: null, n: 0 },
      { name: 'photos', n: 1 },
      { name: 'root', n: 2 },
    ]);
  });

  it('hoists aggregates through nested to-one spreads, up to a JSON embed', async () => {
    const nested = await db.from('messages').select('...channels(slug, ...users(count()))');
    expect(byKey(nested.data, 'slug')).toEqual([
      { slug: 'public', count: 2 },
      { slug: 'random', count: 2 },
    ]);
    const grouped = await db.from('messages').select('...channels(slug, creator:users(username), n:count())');
    expect(byKey(grouped.data, 'slug')).toEqual([
      { slug: 'public', creator: { username: 'supabot' }, n: 2 },
      { slug: 'random', creator: { username: 'kiwicopple' }, n: 2 },
    ]);
    const inEmbed = await db
      .from('users')
      .select('username, messages(...channels(slug, n:count()))')
      .order('id');
    expect(inEmbed.error).toBeNull();
    expect(
      inEmbed.data?.map((u: { username: string; messages: { slug: string }[] }) => ({
        ...u,
        messages: byKey(u.messages, 'slug'),
      })),
    ).toEqual([
      {
        username: 'supabot',
        messages: [
          { slug: 'public', n: 1 },
          { slug: 'random', n: 1 },
        ],
      },
      { username: 'kiwicopple', messages: [{ slug: 'random', n: 1 }] },
      { username: 'awailas', messages: [{ slug: 'public', n: 1 }] },
      { username: 'dragarcia', messages: [] },
    ]);
  });

  it('refuses aggregates in a to-many spread as PostgREST 13 does (PGRST127)', async () => {
    const { error, status } = await db.from('channels').select('slug, ...messages(likes.sum())');
    expect(status).toBe(400);
    expect(error).toEqual({
      code: 'PGRST127',
      details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      hint: null,
      message: 'Feature not implemented',
    });
  });
});
