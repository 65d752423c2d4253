import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { mintUser } from '../../helpers/realtime-fixture.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const wsUrl = (query: string) => `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?${query}`;

/** A raw socket that records every frame it receives. */
async function rawSocket(vsn = '2.0.0', apikey = stack.status.anon_key) {
  const ws = new WebSocket(wsUrl(`apikey=${apikey}&vsn=${vsn}`));
  const frames: unknown[] = [];
  let closeCode: number | null = null;
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as unknown));
  ws.on('close', (code) => (closeCode = code));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = async (pred: (f: unknown) => boolean) => {
    const until = Date.now() + 3000;
    for (;;) {
      const hit = frames.find(pred);
      if (hit) {
        return hit;
      }
      if (Date.now() > until) {
        throw new Error(`no matching frame in ${JSON.stringify(frames)}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const closed = async () => {
    const until = Date.now() + 3000;
    while (closeCode === null && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
    return closeCode;
  };
  return { ws, frames, next, closed };
}

const upgradeStatus = (query: string) =>
  new Promise<number>((resolve) => {
    const ws = new WebSocket(wsUrl(query));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });

const ref = (f: unknown, r: string) => Array.isArray(f) && f[1] === r;

describe('realtime wire protocol and hostile input', () => {
  it('checks the apikey on the upgrade', async () => {
    expect(await upgradeStatus('vsn=2.0.0')).toBe(401);
    expect(await upgradeStatus(`apikey=${stack.status.anon_key.slice(0, -4)}AAAA&vsn=2.0.0`)).toBe(403);
    expect(await upgradeStatus(`apikey=${(await mintUser(stack, -10)).token}&vsn=2.0.0`)).toBe(403);
    expect(await upgradeStatus(`apikey=${stack.status.anon_key}&vsn=9.9.9`)).toBe(400);
    expect(await upgradeStatus(`apikey=${stack.status.anon_key}&vsn=2.0.0`)).toBe(101);
  });

  it('answers heartbeats in vsn 2.0.0 arrays and vsn 1.0.0 objects', async () => {
    const v2 = await rawSocket();
    v2.ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    expect(await v2.next((f) => ref(f, '1'))).toEqual([
      null,
      '1',
      'phoenix',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    v2.ws.close();
    const v1 = await rawSocket('1.0.0');
    v1.ws.send(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '7' }));
    expect(await v1.next((f) => (f as { ref?: string }).ref === '7')).toMatchObject({
      topic: 'phoenix',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
    });
    v1.ws.close();
  });

  it('answers unknown topics, bad join payloads and unknown events with error replies', async () => {
    const s = await rawSocket();
    s.ws.send(
      JSON.stringify([
        null,
        '2',
        'realtime:nobody',
        'broadcast',
        { type: 'broadcast', event: 'x', payload: {} },
      ]),
    );
    expect(await s.next((f) => ref(f, '2'))).toMatchObject([
      null,
      '2',
      'realtime:nobody',
      'phx_reply',
      { status: 'error', response: { reason: 'unmatched topic' } },
    ]);
    s.ws.send(
      JSON.stringify(['3', '3', 'realtime:r', 'phx_join', { config: { postgres_changes: 'all of them' } }]),
    );
    expect(await s.next((f) => ref(f, '3'))).toMatchObject([
      '3',
      '3',
      'realtime:r',
      'phx_reply',
      { status: 'error' },
    ]);
    s.ws.send(JSON.stringify(['4', '4', 'not-realtime', 'phx_join', {}]));
    expect(await s.next((f) => ref(f, '4'))).toMatchObject([
      '4',
      '4',
      'not-realtime',
      'phx_reply',
      { status: 'error' },
    ]);
    s.ws.send(
      JSON.stringify(['5', '5', 'realtime:ok', 'phx_join', { config: {}, access_token: 'not-a-jwt' }]),
    );
    expect(await s.next((f) => ref(f, '5'))).toMatchObject([
      '5',
      '5',
      'realtime:ok',
      'phx_reply',
      { status: 'error', response: { reason: expect.stringMatching(/InvalidJWTToken/) as unknown } },
    ]);
    s.ws.send(JSON.stringify(['6', '6', 'realtime:ok', 'phx_join', { config: {} }]));
    expect(await s.next((f) => ref(f, '6'))).toMatchObject([
      '6',
      '6',
      'realtime:ok',
      'phx_reply',
      { status: 'ok', response: { postgres_changes: [] } },
    ]);
    s.ws.send(JSON.stringify(['6', '7', 'realtime:ok', 'shout', {}]));
    expect(await s.next((f) => ref(f, '7'))).toMatchObject([
      '6',
      '7',
      'realtime:ok',
      'phx_reply',
      { status: 'error' },
    ]);
    s.ws.send(JSON.stringify(['6', '8', 'realtime:ok', 'presence', { type: 'presence', event: 'dance' }]));
    expect(await s.next((f) => ref(f, '8'))).toMatchObject([
      '6',
      '8',
      'realtime:ok',
      'phx_reply',
      { status: 'error' },
    ]);
    s.ws.send(JSON.stringify(['6', '9', 'realtime:ok', 'phx_leave', {}]));
    expect(await s.next((f) => ref(f, '9'))).toMatchObject([
      '6',
      '9',
      'realtime:ok',
      'phx_reply',
      { status: 'ok' },
    ]);
    s.ws.close();
  });

  it('closes a socket on undecodable, truncated binary or oversized frames, and keeps serving others', async () => {
    for (const bad of [
      '{not json',
      '[1,2]',
      '"just a string"',
      Buffer.from([3, 200, 200, 200, 200, 200, 1, 65]),
      Buffer.from([9, 0, 0]),
    ]) {
      const s = await rawSocket();
      s.ws.send(bad);
      expect(await s.closed()).toBe(1007);
    }
    const big = await rawSocket();
    big.ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', { pad: 'x'.repeat(2 * 1024 * 1024) }]));
    expect(await big.closed()).toBe(1009);
    const fine = await rawSocket();
    fine.ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    expect(await fine.next((f) => ref(f, '1'))).toBeTruthy();
    fine.ws.close();
  });

  it('decodes a kind-3 binary broadcast push and answers its ack', async () => {
    const s = await rawSocket();
    s.ws.send(
      JSON.stringify([
        '1',
        '1',
        'realtime:bin',
        'phx_join',
        { config: { broadcast: { self: true, ack: true } } },
      ]),
    );
    await s.next((f) => ref(f, '1'));
    const parts = ['1', '2', 'realtime:bin', 'msg'].map((p) => Buffer.from(p));
    const payload = Buffer.from(JSON.stringify({ hello: 'world' }));
    s.ws.send(Buffer.concat([Buffer.from([3, ...parts.map((p) => p.length), 0, 1]), ...parts, payload]));
    expect(await s.next((f) => ref(f, '2'))).toMatchObject([
      '1',
      '2',
      'realtime:bin',
      'phx_reply',
      { status: 'ok' },
    ]);
    expect(await s.next((f) => Array.isArray(f) && f[3] === 'broadcast')).toMatchObject([
      '1',
      null,
      'realtime:bin',
      'broadcast',
      { type: 'broadcast', event: 'msg', payload: { hello: 'world' } },
    ]);
    s.ws.close();
  });
});
