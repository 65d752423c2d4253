import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import {
  createFixtureTable,
  mintUser,
  realtimeClient,
  sleep,
  subscribed,
  waitFor,
  type TestUser,
} from '../../helpers/realtime-fixture.ts';

type Row = { id: number; user_id: string; title: string | null; n: number | null; done: boolean };
type Change = RealtimePostgresChangesPayload<Row>;

let stack: RunningStack;
const clients: SupabaseClient[] = [];
const open = (user?: TestUser, key: 'anon' | 'service_role' = 'anon') => {
  const sb = realtimeClient(stack, user, key);
  clients.push(sb);
  return sb;
};

beforeAll(async () => {
  stack = await startTestStack();
  await createFixtureTable(stack, 'rt_items');
});
afterAll(async () => {
  for (const sb of clients) {
    await sb.removeAllChannels();
  }
  await stack.close();
});

const insertAs = async (userId: string, title: string, n = 1) =>
  (
    await stack.ctx.db.query<{ id: number }>(
      'insert into public.rt_items (user_id, title, n) values ($1, $2, $3) returning id',
      [userId, title, n],
    )
  ).rows[0]!.id;

describe('realtime postgres_changes', () => {
  it("delivers INSERT, UPDATE and DELETE of a user's own rows, filtered, and nothing to another user or anon", async () => {
    const [alice, bob] = [await mintUser(stack), await mintUser(stack)];
    const got = {
      alice: [] as Change[],
      bob: [] as Change[],
      anon: [] as Change[],
      service: [] as Change[],
      aliceTitled: [] as Change[],
    };
    const listen = (sb: SupabaseClient, name: string, sink: Change[], filter?: string) =>
      subscribed(
        sb
          .channel(name)
          .on<Row>(
            'postgres_changes',
            { event: '*', schema: 'public', table: 'rt_items', ...(filter ? { filter } : {}) },
            (p) => sink.push(p),
          ),
      );
    await listen(open(alice), 'alice', got.alice, `user_id=eq.${alice.id}`);
    await listen(open(alice), 'alice-titled', got.aliceTitled, 'title=in.("wanted, really",other)');
    await listen(open(bob), 'bob', got.bob);
    await listen(open(), 'anon', got.anon);
    await listen(open(undefined, 'service_role'), 'service', got.service);

    const id = await insertAs(alice.id, 'wanted, really', 5);
    await stack.ctx.db.query(`update public.rt_items set done = true, n = 6 where id = $1`, [id]);
    await stack.ctx.db.query(`delete from public.rt_items where id = $1`, [id]);
    await waitFor(() => got.alice.length === 3 && got.service.length === 3, 5000, 'alice and service events');

    expect(got.alice.map((c) => c.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    const [ins, upd, del] = got.alice as [Change, Change, Change];
    expect(ins).toMatchObject({
      schema: 'public',
      table: 'rt_items',
      new: { id, user_id: alice.id, title: 'wanted, really', n: 5, done: false },
      old: {},
      errors: null,
    });
    expect(ins.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(upd).toMatchObject({ new: { id, done: true, n: 6 }, old: { id } });
    // Without replica identity full, old_record carries only the primary key.
    expect(del).toMatchObject({ old: { id }, new: {} });
    expect(Object.keys(del.old)).toEqual(['id']);
    // The in() filter on the title matches the insert and update (the delete's row is checked too).
    expect(got.aliceTitled.map((c) => c.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    await sleep(200);
    expect(got.bob).toEqual([]);
    expect(got.anon).toEqual([]);
  });

  it('applies filters: a non-matching row is not delivered', async () => {
    const alice = await mintUser(stack);
    const got: Change[] = [];
    await subscribed(
      open(alice)
        .channel('filtered')
        .on<Row>(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_items', filter: 'n=gte.10' },
          (p) => got.push(p),
        ),
    );
    await insertAs(alice.id, 'small', 3);
    await insertAs(alice.id, 'big', 12);
    await waitFor(() => got.length === 1, 5000, 'the big row');
    await sleep(150);
    expect(got.map((c) => (c.new as Row).title)).toEqual(['big']);
  });

  it('echoes bindings so the client subscribes, and says "Subscribed to PostgreSQL"', async () => {
    const system: { message: string; status: string; extension: string }[] = [];
    const channel = open()
      .channel('echo')
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'rt_items', filter: 'id=in.(1,2,"a,b")' },
        () => undefined,
      )
      .on('postgres_changes', { event: '*', schema: 'public' }, () => undefined)
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'rt_items', filter: 'title=not.eq.x' },
        () => undefined,
      )
      .on('system', {}, (p: { message: string; status: string; extension: string }) => system.push(p));
    await subscribed(channel);
    await waitFor(() => system.length > 0, 2000, 'system message');
    expect(system[0]).toMatchObject({
      message: 'Subscribed to PostgreSQL',
      status: 'ok',
      extension: 'postgres_changes',
    });
  });

  it("refuses a malformed binding with a join error in Realtime's shape", async () => {
    const channel = open()
      .channel('bad-binding')
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'rt_items', filter: 'id=between.1' },
        () => undefined,
      );
    await expect(subscribed(channel)).rejects.toThrow(/CHANNEL_ERROR: Invalid postgres_changes binding/);
  });

  it('reports a table outside the publication with a system error', async () => {
    const system: { status: string; message: string }[] = [];
    await subscribed(
      open()
        .channel('unpublished')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'no_such_table' }, () => undefined)
        .on('system', {}, (p: { status: string; message: string }) => system.push(p)),
    );
    await waitFor(() => system.length > 0, 2000, 'system error');
    expect(system[0]).toMatchObject({ status: 'error' });
    expect(system[0]!.message).toMatch(/Unable to subscribe to changes/);
  });

  it('closes the channel when an access_token push carries an expired or forged token', async () => {
    for (const bad of [
      (await mintUser(stack, -30)).token,
      `${(await mintUser(stack)).token.slice(0, -6)}AAAAAA`,
    ]) {
      const alice = await mintUser(stack);
      const sb = open(alice);
      const system: { status: string; message: string }[] = [];
      const statuses: string[] = [];
      const got: Change[] = [];
      const channel = sb
        .channel(`expiring-${statuses.length}-${Math.random()}`)
        .on<Row>('postgres_changes', { event: '*', schema: 'public', table: 'rt_items' }, (p) => got.push(p))
        .on('system', {}, (p: { status: string; message: string }) => system.push(p));
      await new Promise<void>((resolve) =>
        channel.subscribe((s) => {
          statuses.push(s);
          if (s === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) {
            resolve();
          }
        }),
      );
      await sb.realtime.setAuth(bad);
      await waitFor(() => statuses.includes('CLOSED'), 3000, 'channel close');
      expect(system.some((m) => m.status === 'error')).toBe(true);
      // A closed channel gets nothing more, not even its owner's rows.
      await insertAs(alice.id, 'after close');
      await sleep(150);
      expect(got).toEqual([]);
    }
  });
});
