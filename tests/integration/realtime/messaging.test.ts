import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { mintUser, realtimeClient, sleep, subscribed, waitFor } from '../../helpers/realtime-fixture.ts';

let stack: RunningStack;
const clients: SupabaseClient[] = [];
const open = () => {
  const sb = realtimeClient(stack);
  clients.push(sb);
  return sb;
};

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  for (const sb of clients) {
    await sb.removeAllChannels();
  }
  await stack.close();
});

type Msg = { event: string; payload?: unknown };

describe('realtime broadcast and presence', () => {
  it('broadcasts to others, to the sender with self, acknowledges with ack, and carries binary payloads', async () => {
    const selfGot: Msg[] = [];
    const otherGot: Msg[] = [];
    const sender = await subscribed(
      open()
        .channel('room-1', { config: { broadcast: { self: true, ack: true } } })
        .on('broadcast', { event: '*' }, (m) => selfGot.push(m)),
    );
    const quietSender = await subscribed(open().channel('room-1'));
    await subscribed(
      open()
        .channel('room-1')
        .on('broadcast', { event: '*' }, (m) => otherGot.push(m)),
    );

    expect(await sender.send({ type: 'broadcast', event: 'hello', payload: { n: 1 } })).toBe('ok');
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    await sender.send({ type: 'broadcast', event: 'bin', payload: bytes.buffer });
    await quietSender.send({ type: 'broadcast', event: 'quiet', payload: { n: 2 } });
    await waitFor(() => otherGot.length === 3 && selfGot.length === 3, 3000, 'broadcasts');
    expect(otherGot[0]).toMatchObject({ event: 'hello', payload: { n: 1 } });
    expect(new Uint8Array(otherGot[1]!.payload as ArrayBuffer)).toEqual(bytes);
    expect(selfGot.map((m) => m.event)).toEqual(['hello', 'bin', 'quiet']);
  });

  it('keeps a topic private to its own channels', async () => {
    const got: Msg[] = [];
    await subscribed(
      open()
        .channel('room-a')
        .on('broadcast', { event: '*' }, (m) => got.push(m)),
    );
    const other = await subscribed(open().channel('room-b'));
    await other.send({ type: 'broadcast', event: 'x', payload: {} });
    await sleep(150);
    expect(got).toEqual([]);
  });

  it('syncs presence between clients and reports leaves', async () => {
    const a = open().channel('lobby', { config: { presence: { key: 'alice' } } });
    const b = open().channel('lobby', { config: { presence: { key: 'bob' } } });
    const leaves: string[] = [];
    a.on('presence', { event: 'sync' }, () => undefined).on('presence', { event: 'leave' }, ({ key }) =>
      leaves.push(key),
    );
    b.on('presence', { event: 'sync' }, () => undefined);
    await subscribed(a);
    await subscribed(b);
    expect(await a.track({ online_at: 1 })).toBe('ok');
    expect(await b.track({ online_at: 2 })).toBe('ok');
    await waitFor(
      () => Object.keys(a.presenceState()).length === 2 && Object.keys(b.presenceState()).length === 2,
      3000,
      'presence sync',
    );
    expect(a.presenceState().bob?.[0]).toMatchObject({ online_at: 2 });
    await b.untrack();
    await waitFor(() => leaves.includes('bob'), 3000, 'presence leave');
    expect(Object.keys(a.presenceState())).toEqual(['alice']);
  });

  it('delivers REST broadcasts (the unjoined send fallback and httpSend with 202)', async () => {
    const got: Msg[] = [];
    await subscribed(
      open()
        .channel('news')
        .on('broadcast', { event: '*' }, (m) => got.push(m)),
    );
    const unjoined = open().channel('news');
    expect(await unjoined.send({ type: 'broadcast', event: 'via-rest', payload: { a: 1 } })).toBe('ok');
    const res = await unjoined.httpSend('via-http', { b: 2 });
    expect(res).toMatchObject({ success: true });
    await waitFor(() => got.length === 2, 3000, 'REST broadcasts');
    expect(got).toEqual([
      expect.objectContaining({ event: 'via-rest', payload: { a: 1 } }),
      expect.objectContaining({ event: 'via-http', payload: { b: 2 } }),
    ]);
    const direct = await fetch(
      `${stack.url}/realtime/v1/api/broadcast/news/events/raw?apikey=${stack.status.anon_key}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ c: 3 }),
      },
    );
    expect(direct.status).toBe(202);
  });

  it('refuses REST broadcasts without a valid key or with a bad body, and drops private ones no policy allows', async () => {
    const url = `${stack.url}/realtime/v1/api/broadcast`;
    const body = JSON.stringify({ messages: [{ topic: 'news', event: 'e', payload: {} }] });
    expect((await fetch(url, { method: 'POST', body })).status).toBe(401);
    expect(
      (await fetch(`${url}?apikey=forged.${stack.status.anon_key.slice(7)}`, { method: 'POST', body }))
        .status,
    ).toBe(401);
    const anon = { apikey: stack.status.anon_key, 'content-type': 'application/json' };
    expect((await fetch(url, { method: 'POST', headers: anon, body: '{"messages":' })).status).toBe(400);
    const user = await mintUser(stack);
    const priv = JSON.stringify({ messages: [{ topic: 'news', event: 'e', payload: {}, private: true }] });
    expect(
      (
        await fetch(url, {
          method: 'POST',
          headers: { ...anon, authorization: `Bearer ${user.token}` },
          body: priv,
        })
      ).status,
    ).toBe(202);
    const huge = JSON.stringify({
      messages: [{ topic: 'news', event: 'e', payload: 'x'.repeat(2 * 1024 * 1024) }],
    });
    expect((await fetch(url, { method: 'POST', headers: anon, body: huge })).status).toBe(413);
  });

  it('lets only the service role join a private channel', async () => {
    await expect(subscribed(open().channel('secret', { config: { private: true } }))).rejects.toThrow(
      /Unauthorized/,
    );
    const service = realtimeClient(stack, undefined, 'service_role');
    clients.push(service);
    await subscribed(service.channel('secret', { config: { private: true } }));
  });
});
