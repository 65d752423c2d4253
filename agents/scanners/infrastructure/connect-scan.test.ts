// Connect scan on both engines against listeners this test starts (and one it has just closed): it
// touches only ports of its own, never sweeps the shared loopback (full sweeps are in tests/scanners).
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requires, skipNow } from '../../../tests/helpers/requirements.ts';
import { connectScan } from './connect-scan.ts';

const listen = () =>
  new Promise<net.Server>((resolve) => {
    const server = net.createServer((socket) => socket.on('error', () => undefined));
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
const portOf = (server: net.Server) => (server.address() as AddressInfo).port;
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('connectScan', () => {
  let open: net.Server[];
  let closedPort: number;
  beforeAll(async () => {
    open = await Promise.all([listen(), listen()]);
    const gone = await listen();
    closedPort = portOf(gone);
    await close(gone);
  });
  afterAll(async () => {
    await Promise.all(open.map(close));
  });

  for (const engine of ['auto', 'net.Socket'] as const) {
    it(`finds exactly the listening ports (engine ${engine})`, async () => {
      const ports = [...open.map(portOf), closedPort];
      const progress: number[] = [];
      const result = await connectScan({
        address: '127.0.0.1',
        ports,
        engine,
        onProgress: (done) => progress.push(done),
      });
      expect(result.open).toEqual(open.map(portOf).sort((a, b) => a - b));
      expect(result.attempts).toBe(3);
      expect(progress.at(-1)).toBe(3);
      // The adaptive timeout follows the loopback's round trip (quick on a quiet machine, slow on a loaded
      // one), within its bounds: never under the minimum or the round trip itself, never over the maximum.
      expect(result.timeoutMs).toBeGreaterThanOrEqual(Math.max(250, Math.min(2000, result.rttMs)));
      expect(result.timeoutMs).toBeLessThanOrEqual(2000);
      if (engine === 'net.Socket') {
        expect(result.engine).toBe('net.Socket');
      }
    });
  }

  it('uses the tcp_wrap fast path on this Node', async () => {
    const result = await connectScan({ address: '127.0.0.1', ports: [portOf(open[0]!)] });
    expect(result.engine).toBe('tcp_wrap');
    expect(result.open).toEqual([portOf(open[0]!)]);
  });

  it('shares a sweep with a worker thread: each port tried once, the same ports found', async () => {
    const ports = [...open.map(portOf), closedPort];
    const progress: number[] = [];
    const result = await connectScan({
      address: '127.0.0.1',
      ports,
      threads: 2,
      onProgress: (done) => progress.push(done),
    });
    // The thread started (a thread that cannot load is left out of the count).
    expect(result.threads).toBe(2);
    expect(result.open).toEqual(open.map(portOf).sort((a, b) => a - b));
    expect(result.attempts).toBe(3);
    expect(progress.at(-1)).toBe(3);
  });

  it('returns at once, with nothing attempted, when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await connectScan({
      address: '127.0.0.1',
      ports: open.map(portOf),
      signal: controller.signal,
    });
    expect(result.attempts).toBe(0);
    expect(result.open).toEqual([]);
  });

  it('scans IPv6 loopback too', async (context) => {
    const server = await new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer().once('error', reject);
      s.listen(0, '::1', () => resolve(s));
    }).catch((error: unknown) => error as Error);
    if (server instanceof Error) {
      return skipNow(context, {
        requirement: 'ipv6-loopback',
        detail: `cannot listen on ::1: ${server.message}`,
      });
    }
    try {
      const result = await connectScan({ address: '::1', ports: [portOf(server)] });
      expect(result.open).toEqual([portOf(server)]);
    } finally {
      await close(server);
    }
  });

  // A listener whose accept queue is full drops new SYNs, as a firewall does: the port must time out
  // (retried once), not hang and not count as open. Python holds the queue: Node always accepts.
  const python =
    spawnSync('python3', ['-c', 'pass']).status === 0
      ? null
      : { requirement: 'debian:python3', detail: 'python3 is not on PATH (apt-get install python3)' };
  for (const engine of ['auto', 'net.Socket'] as const) {
    it(
      `times out on a port that never answers, retrying once (engine ${engine})`,
      requires(python),
      async () => {
        const script =
          "import socket,time\ns=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(0)\nprint(s.getsockname()[1], flush=True)\ntime.sleep(30)";
        const holder = spawn('python3', ['-c', script]);
        const fillers: net.Socket[] = [];
        try {
          const port = await new Promise<number>((resolve) =>
            holder.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
          );
          for (let i = 0; i < 3; i++) {
            fillers.push(net.connect(port, '127.0.0.1').on('error', () => undefined));
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
          const started = performance.now();
          const result = await connectScan({
            address: '127.0.0.1',
            ports: [port],
            minTimeoutMs: 100,
            maxTimeoutMs: 300,
            engine,
          });
          expect(result.open).toEqual([]);
          expect(result.attempts).toBe(2);
          expect(performance.now() - started).toBeGreaterThanOrEqual(500);
        } finally {
          fillers.forEach((socket) => socket.destroy());
          holder.kill();
        }
      },
    );
  }
});
