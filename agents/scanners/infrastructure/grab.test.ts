import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { grab } from './grab.ts';
import type { Step } from './grab.ts';

const servers: net.Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A server that writes `script` pieces after their delays (ms from connection). */
async function scripted(script: [number, string][]): Promise<number> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    script.forEach(([ms, text]) => setTimeout(() => !socket.destroyed && socket.write(text), ms));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const untilLine =
  (line: string, reply: string): Step =>
  (got) =>
    got.toString().includes(line) ? Buffer.from(reply) : 'wait';

describe('grab', () => {
  it('takes another source port when the chosen one cannot be bound, and only when it may choose', async () => {
    const port = await scripted([[10, 'hello\r\n']]);
    // The source port we would choose is taken (as rshd's own 514 is, or a port in TIME_WAIT).
    const taken = net.createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as AddressInfo).port;
    const chosen: number[] = [];
    const got = await grab('127.0.0.1', port, null, {
      firstByteMs: 1000,
      localPort: () => {
        chosen.push(chosen.length === 0 ? busy : 0);
        return chosen.at(-1)!;
      },
    });
    expect(got.toString()).toBe('hello\r\n');
    expect(chosen).toEqual([busy, 0]);
    // A fixed port is not replaced: the conversation ends empty.
    expect((await grab('127.0.0.1', port, null, { firstByteMs: 1000, localPort: busy })).length).toBe(0);
  });

  it('waits for an answer that arrives in pieces well apart, up to the reply time', async () => {
    const port = await scripted([
      [50, '220-first line\r\n'],
      [450, '220 last line\r\n'],
    ]);
    const got = await grab('127.0.0.1', port, null, {
      firstByteMs: 1000,
      then: [untilLine('220 last', 'USER x\r\n')],
    });
    expect(got.toString()).toBe('220-first line\r\n220 last line\r\n');
  });

  it('gives up at the reply time when the awaited answer never completes', async () => {
    const port = await scripted([[20, '220-only a first line\r\n']]);
    const started = Date.now();
    await grab('127.0.0.1', port, null, { firstByteMs: 600, then: [untilLine('220 ', 'USER x\r\n')] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('ends soon after a different answer, without waiting the reply time', async () => {
    const port = await scripted([[20, '530 no\r\n']]);
    const started = Date.now();
    const got = await grab('127.0.0.1', port, null, { firstByteMs: 5000, then: [() => null] });
    expect(got.toString()).toBe('530 no\r\n');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers two steps at once when the greeting and the next message arrive in one segment', async () => {
    const received: string[] = [];
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('HELLO\r\nOFFER\r\n');
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk.toString());
        if (chunk.toString().includes('REQUEST')) {
          socket.write('ANSWER\r\n');
        }
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const got = await grab('127.0.0.1', (server.address() as AddressInfo).port, null, {
      firstByteMs: 1000,
      then: [
        untilLine('HELLO', 'IDENT\r\n'),
        untilLine('OFFER', 'REQUEST\r\n'),
        (data) => (data.toString().includes('ANSWER') ? null : 'wait'),
      ],
    });
    expect(received.join('')).toBe('IDENT\r\nREQUEST\r\n');
    expect(got.toString()).toBe('HELLO\r\nOFFER\r\nANSWER\r\n');
  });

  it('ends at once when a step has all it wanted', async () => {
    const port = await scripted([[20, 'OFFER\r\n']]);
    const started = Date.now();
    const got = await grab('127.0.0.1', port, null, { firstByteMs: 5000, then: [() => 'done'] });
    expect(got.toString()).toBe('OFFER\r\n');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('opens no connection once the scan is stopped', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const controller = new AbortController();
    controller.abort();
    const port = (server.address() as AddressInfo).port;
    expect(
      (await grab('127.0.0.1', port, null, { firstByteMs: 500, signal: controller.signal })).length,
    ).toBe(0);
    expect(connections).toBe(0);
  });

  it('ends at its deadline however the peer drips its bytes, and keeps no more than its byte limit', async () => {
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      const drip = setInterval(() => socket.write('x'), 20);
      socket.once('close', () => clearInterval(drip));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const started = Date.now();
    const got = await grab('127.0.0.1', port, null, { firstByteMs: 200, idleMs: 1000, totalMs: 400 });
    // Every byte restarts the idle wait; only the deadline ends it (generous bound: a loaded machine).
    expect(Date.now() - started).toBeLessThan(3000);
    expect(got.length).toBeGreaterThan(0);
    const flood = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write(Buffer.alloc(100_000, 0x41));
    });
    servers.push(flood);
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    const flooded = await grab('127.0.0.1', (flood.address() as AddressInfo).port, null, {
      firstByteMs: 500,
      maxBytes: 1000,
    });
    expect(flooded.length).toBe(1000);
  });
});
