import { REALTIME_SUBSCRIBE_STATES } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { checkout, completeLocalCheckout, ROLE, signedInCustomer } from '../../helpers/billing-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe("realtime 'subscription-changes'", () => {
  it('tells the buyer, and only the buyer, when checkout activates their subscription', async () => {
    const buyer = await signedInCustomer(stack, 'live');
    const other = await signedInCustomer(stack, 'other');
    const seen: { who: string; table: string; status: unknown }[] = [];
    const listen = async (c: typeof buyer, who: string) => {
      await c.supabase.realtime.setAuth(c.token);
      const channel = c.supabase
        .channel('subscription-changes')
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'subscriptions', filter: `user_id=eq.${buyer.id}` },
          (p) => seen.push({ who, table: 'subscriptions', status: (p.new as { status?: unknown }).status }),
        );
      await new Promise<void>((resolve, reject) =>
        channel.subscribe((state, err) =>
          state === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED ? resolve() : err ? reject(err) : undefined,
        ),
      );
      return channel;
    };
    const channels = [await listen(buyer, 'buyer'), await listen(other, 'other')];
    const { data } = await checkout(buyer.supabase, { roleIds: [ROLE.analyst], userId: buyer.id });
    expect((await completeLocalCheckout(data!.url)).status).toBe(303);
    await expect
      .poll(() => seen.filter((s) => s.who === 'buyer'), { timeout: 5000 })
      .toContainEqual({ who: 'buyer', table: 'subscriptions', status: 'trialing' });
    expect(seen.filter((s) => s.who === 'other')).toEqual([]);
    for (const channel of channels) {
      await channel.unsubscribe();
    }
    await buyer.supabase.realtime.disconnect();
    await other.supabase.realtime.disconnect();
  });
});
