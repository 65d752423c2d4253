// The desktop app's realtime topic vigil-desktop-<user id>-<n> (docs/product.md §16): anyone, anon included, could
// join it and send broadcasts to the desktop or listen there. The main process's own watcher (the code the
// desktop runs) now joins it as a private channel that only its user may join and nobody may send on.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createMainSupabase,
  desktopTopic,
  supabaseWatcherBackend,
} from '../../../electron/main/background-watcher-supabase.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { realtimeClient, sleep, subscribed, waitFor } from '../../helpers/realtime-fixture.ts';

type Msg = { event: string; payload?: unknown };

let stack: RunningStack;
let alice: TestUser;
let bob: TestUser;
let desktop: SupabaseClient;
let stopWatching: () => Promise<void>;
const desktopGot: Msg[] = [];
const clients: SupabaseClient[] = [];

/** The main process's client, signed in as alice, with the watcher's channel joined. */
async function aliceDesktop(): Promise<SupabaseClient> {
  const items = new Map<string, string>();
  const storage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  const main = createMainSupabase(
    { supabaseUrl: stack.url, supabaseAnonKey: stack.status.anon_key },
    storage,
    WebSocket,
  );
  const { error } = await main.auth.signInWithPassword({ email: alice.email, password: alice.password });
  expect(error).toBeNull();
  let ready = false;
  stopWatching = await supabaseWatcherBackend(main, () => {}).subscribe(
    alice.id,
    () => {},
    () => (ready = true),
  );
  await waitFor(() => ready, 10_000, 'the desktop channel joined');
  return main;
}

beforeAll(async () => {
  stack = await startTestStack();
  alice = await signedInUser(stack, 'alice.desktop@example.com');
  bob = await signedInUser(stack, 'bob.desktop@example.com');
  desktop = await aliceDesktop();
  // Whatever reaches the desktop's channel as a broadcast.
  const [channel] = desktop.getChannels();
  channel!.on('broadcast', { event: '*' }, (m) => desktopGot.push(m as Msg));
  clients.push(desktop, alice.supabase, bob.supabase);
}, 60_000);
afterAll(async () => {
  await stopWatching?.();
  for (const sb of clients) {
    await sb.removeAllChannels();
  }
  await stack.close();
});

const topic = () => desktopTopic(alice.id, 1);

describe("the desktop app's realtime channel", () => {
  it('is the private topic of its user', () => {
    expect(desktop.getChannels().map((c) => c.topic)).toEqual([`realtime:${topic()}`]);
  });

  it('takes no broadcast from anyone who joins the public topic of the same name', async () => {
    const anon = client(stack);
    clients.push(anon);
    const fromAnon = await subscribed(anon.channel(topic()));
    const fromBob = await subscribed(bob.supabase.channel(topic()));
    await fromAnon.send({ type: 'broadcast', event: 'scan-finished', payload: { forged: 'anon' } });
    await fromBob.send({ type: 'broadcast', event: 'scan-finished', payload: { forged: 'bob' } });
    await sleep(500);
    expect(desktopGot).toEqual([]);
  });

  it('lets no other user, nor anon, join it', async () => {
    // Fresh clients: supabase-js hands back a channel it already has for a topic.
    const fresh = (user?: TestUser) => {
      const sb = realtimeClient(stack, user && { id: user.id, token: user.accessToken });
      clients.push(sb);
      return sb;
    };
    for (const outsider of [fresh(), fresh(bob)]) {
      await expect(subscribed(outsider.channel(topic(), { config: { private: true } }))).rejects.toThrow(
        `Unauthorized: You do not have permissions to read from this Channel topic: ${topic()}`,
      );
    }
    // Nor any other desktop topic of alice's.
    await expect(
      subscribed(fresh(bob).channel(desktopTopic(alice.id, 2), { config: { private: true } })),
    ).rejects.toThrow(/Unauthorized/);
  });

  it('lets nobody send on it: what the service broadcasts reaches its user only, and its user cannot send', async () => {
    const publicListener: Msg[] = [];
    const anon = client(stack);
    clients.push(anon);
    await subscribed(
      anon.channel(topic()).on('broadcast', { event: '*' }, (m) => publicListener.push(m as Msg)),
    );
    // Alice's second device on the same private topic: it may listen, and still may not send.
    const aliceElsewhere: Msg[] = [];
    const second = await subscribed(
      alice.supabase
        .channel(topic(), { config: { private: true } })
        .on('broadcast', { event: '*' }, (m) => aliceElsewhere.push(m as Msg)),
    );
    await second.send({ type: 'broadcast', event: 'from-alice', payload: {} });

    const res = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: {
        apikey: stack.status.service_role_key,
        authorization: `Bearer ${stack.status.service_role_key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        messages: [{ topic: topic(), event: 'from-service', payload: { n: 1 }, private: true }],
      }),
    });
    expect(res.status).toBe(202);
    await waitFor(() => desktopGot.length >= 1, 3000, 'the service broadcast');
    await sleep(300);
    expect(desktopGot).toEqual([expect.objectContaining({ event: 'from-service', payload: { n: 1 } })]);
    expect(aliceElsewhere.map((m) => m.event)).toEqual(['from-service']);
    expect(publicListener).toEqual([]);
  });
});
