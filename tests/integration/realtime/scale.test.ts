import type { SupabaseClient } from '@supabase/supabase-js';
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

const SUBSCRIBERS = 100;
let stack: RunningStack;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  await createFixtureTable(stack, 'rt_many');
});
afterAll(async () => {
  for (const sb of clients) {
    await sb.removeAllChannels();
  }
  await stack.close();
});

describe('realtime with many subscribers', () => {
  it(`delivers to each of ${SUBSCRIBERS} users exactly their own rows`, { timeout: 60_000 }, async () => {
    const users: TestUser[] = [];
    const got = new Map<string, string[]>();
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const user = await mintUser(stack);
      users.push(user);
      got.set(user.id, []);
      const sb = realtimeClient(stack, user);
      clients.push(sb);
      await subscribed(
        sb
          .channel(`many-${i}`)
          .on<{ user_id: string }>(
            'postgres_changes',
            { event: 'INSERT', schema: 'public', table: 'rt_many' },
            (p) => got.get(user.id)!.push(p.new.user_id),
          ),
      );
    }
    for (const user of users) {
      await stack.ctx.db.query('insert into public.rt_many (user_id, title) values ($1, $2)', [
        user.id,
        'mine',
      ]);
    }
    await waitFor(
      () => [...got.values()].every((rows) => rows.length >= 1),
      30_000,
      "every subscriber's event",
    );
    await sleep(200);
    for (const [id, rows] of got) {
      expect(rows).toEqual([id]);
    }
  });
});
