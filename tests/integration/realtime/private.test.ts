import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { sleep, subscribed, waitFor } from '../../helpers/realtime-fixture.ts';

const ROOM = 'room:42';
let stack: RunningStack;
let alice: TestUser; // member who may send
let bob: TestUser; // member who may only listen
let carol: TestUser; // no member
const clients: SupabaseClient[] = [];

type Msg = { event: string; payload?: unknown };

/** A private channel on ROOM that records the broadcasts it receives. */
function listen(sb: SupabaseClient, got: Msg[], presence = false): RealtimeChannel {
  const config = presence ? { private: true, presence: { key: 'k' } } : { private: true };
  return sb.channel(ROOM, { config }).on('broadcast', { event: '*' }, (m) => got.push(m));
}

beforeAll(async () => {
  stack = await startTestStack();
  // What a project's migration writes for Realtime Authorization: members of a room receive, senders send.
  await stack.ctx.db.exec(`
    create table public.rp_room_members (room text, user_id uuid, can_send boolean not null, primary key (room, user_id));
    create policy "members receive" on realtime.messages for select to authenticated using (
      realtime.messages.extension in ('broadcast', 'presence')
      and exists (select 1 from public.rp_room_members m where m.room = realtime.topic() and m.user_id = auth.uid()));
    create policy "senders send" on realtime.messages for insert to authenticated with check (
      exists (select 1 from public.rp_room_members m
               where m.room = realtime.topic() and m.user_id = auth.uid() and m.can_send));
  `);
  alice = await signedInUser(stack, 'alice.private@example.com');
  bob = await signedInUser(stack, 'bob.private@example.com');
  carol = await signedInUser(stack, 'carol.private@example.com');
  await stack.ctx.db.exec(
    `insert into public.rp_room_members values ('${ROOM}', '${alice.id}', true), ('${ROOM}', '${bob.id}', false)`,
  );
  clients.push(alice.supabase, bob.supabase, carol.supabase);
});
afterAll(async () => {
  for (const sb of clients) {
    await sb.removeAllChannels();
  }
  await stack.close();
});

describe('realtime private channels (Realtime Authorization)', () => {
  it('admits members by their SELECT policy and refuses others with the join error Realtime sends', async () => {
    await subscribed(listen(bob.supabase, []));
    await expect(subscribed(listen(carol.supabase, []))).rejects.toThrow(
      `CHANNEL_ERROR: Unauthorized: You do not have permissions to read from this Channel topic: ${ROOM}`,
    );
    const anon = client(stack);
    clients.push(anon);
    await expect(subscribed(anon.channel(ROOM, { config: { private: true } }))).rejects.toThrow(
      /Unauthorized/,
    );
    await bob.supabase.removeAllChannels();
  });

  it('delivers broadcasts of senders with an INSERT policy, drops the others, and keeps private apart from public', async () => {
    const bobGot: Msg[] = [];
    const aliceGot: Msg[] = [];
    const publicGot: Msg[] = [];
    const fromAlice = await subscribed(listen(alice.supabase, aliceGot));
    const fromBob = await subscribed(listen(bob.supabase, bobGot));
    const outsider = client(stack);
    clients.push(outsider);
    const publicRoom = await subscribed(
      outsider.channel(ROOM).on('broadcast', { event: '*' }, (m) => publicGot.push(m)),
    );

    await fromBob.send({ type: 'broadcast', event: 'denied', payload: {} });
    await publicRoom.send({ type: 'broadcast', event: 'public', payload: {} });
    await fromAlice.send({ type: 'broadcast', event: 'allowed', payload: { n: 1 } });
    await waitFor(() => bobGot.length >= 1, 3000, 'private broadcast');
    await sleep(200);
    expect(bobGot).toEqual([expect.objectContaining({ event: 'allowed', payload: { n: 1 } })]);
    expect(aliceGot).toEqual([]);
    expect(publicGot).toEqual([]);

    // REST: a user without an INSERT policy is dropped (202, as Realtime's batch does); the service role passes.
    const url = `${stack.url}/realtime/v1/api/broadcast`;
    const body = JSON.stringify({
      messages: [{ topic: ROOM, event: 'rest', payload: { from: 'x' }, private: true }],
    });
    const asUser = (token: string) => ({
      apikey: stack.status.anon_key,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    });
    expect((await fetch(url, { method: 'POST', headers: asUser(carol.accessToken), body })).status).toBe(202);
    expect(
      (await fetch(url, { method: 'POST', headers: asUser(stack.status.service_role_key), body })).status,
    ).toBe(202);
    await waitFor(() => bobGot.length === 2 && aliceGot.length === 1, 3000, 'service broadcast');
    await sleep(200);
    expect(bobGot).toHaveLength(2);
    const single = await fetch(
      `${stack.url}/realtime/v1/api/broadcast/${encodeURIComponent(ROOM)}/events/x?private=true`,
      {
        method: 'POST',
        headers: asUser(bob.accessToken),
        body: '{}',
      },
    );
    expect(single.status).toBe(401);
    await alice.supabase.removeAllChannels();
    await bob.supabase.removeAllChannels();
  });

  it('lets only members with an INSERT policy track presence', async () => {
    const aliceRoom = await subscribed(
      listen(alice.supabase, [], true).on('presence', { event: 'sync' }, () => {}),
    );
    const bobRoom = await subscribed(
      listen(bob.supabase, [], true).on('presence', { event: 'sync' }, () => {}),
    );
    expect(await bobRoom.track({ who: 'bob' })).toBe('error');
    expect(await aliceRoom.track({ who: 'alice' })).toBe('ok');
    await waitFor(() => Object.keys(bobRoom.presenceState()).length === 1, 3000, 'presence');
    expect(bobRoom.presenceState().k?.[0]).toMatchObject({ who: 'alice' });
  });
});
