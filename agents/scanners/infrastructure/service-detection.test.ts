import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hostLimits } from './host-budget.ts';
import { detectServices } from './service-detection.ts';

/**
 * Ports answering one FTP banner; the busy ones drop their first two connections unanswered, the slow ones
 * greet the first look's two connections only after 450 ms (after it has sent its HTTP request).
 */
const servers: net.Server[] = [];
const busy = new Set<number>();
const slow = new Set<number>();
const connections = new Map<number, number>();

async function ftpServer(): Promise<number> {
  const server = net.createServer((socket) => {
    const port = (socket.address() as AddressInfo).port;
    const seen = (connections.get(port) ?? 0) + 1;
    connections.set(port, seen);
    if (busy.has(port) && seen <= 2) {
      socket.destroy();
      return;
    }
    socket.on('error', () => undefined);
    // Like a real server, it reads commands only once it has greeted.
    const greeted = new Promise<void>((resolve) =>
      setTimeout(
        () => {
          if (socket.writable) {
            socket.write('220 Gateway FTP service ready\r\n');
          }
          resolve();
        },
        slow.has(port) && seen <= 2 ? 450 : 0,
      ),
    );
    socket.on('data', (chunk) => {
      void greeted.then(
        () =>
          socket.writable &&
          socket.write(/^QUIT/im.test(chunk.toString()) ? '221 Bye.\r\n' : '500 Unknown command.\r\n'),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

let open: number[] = [];
beforeAll(async () => {
  open = await Promise.all(Array.from({ length: 24 }, () => ftpServer()));
  open.sort((a, b) => a - b);
  // Three ports spread over the list are momentarily busy when first looked at.
  [open[3]!, open[11]!, open[19]!].forEach((port) => busy.add(port));
});
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

const detect = (ports: number[]) =>
  detectServices({
    target: { host: '127.0.0.1', address: '127.0.0.1', family: 4 },
    host: '127.0.0.1',
    display: '127.0.0.1',
    open: ports,
    scanned: ports.length,
    firstByteMs: 300,
    count: () => undefined,
    limits: { ...hostLimits, compareFrom: 8, alikeFrom: 8, sample: 2, everyPortFrom: 1000 },
  });

describe('service detection of a host answering alike on many ports', () => {
  it('looks again at ports that answered unlike the rest, and counts them in the group once they agree', async () => {
    const detection = await detect(open);
    // Each busy port was looked at twice (two connections dropped, then a look that read the banner).
    for (const port of busy) {
      expect(connections.get(port)).toBeGreaterThanOrEqual(4);
    }
    const cleartext = detection.findings.filter((f) => f.rule_id === 'infra.ftp.cleartext');
    expect(cleartext).toHaveLength(1);
    expect(cleartext[0]!.evidence).toMatch(/the same on the 24 ports that answered alike/);
    const verdict = detection.findings.find((f) => f.rule_id === 'infra.host.tarpit');
    expect(verdict?.evidence).toMatch(/^24 of the 24 scanned ports accepted a connection; 24 answered alike/);
  });

  it('looks again at ports whose greeting came late, even when enough of them answered alike to make a group', async () => {
    const more = await Promise.all(Array.from({ length: 20 }, () => ftpServer()));
    more.sort((a, b) => a - b);
    // Nine of twenty greet late at first: alike among themselves (the greeting, then the FTP server's
    // answers to the HTTP request), a group of their own unless they are looked at again.
    more.slice(0, 9).forEach((port) => slow.add(port));
    const detection = await detect(more);
    // Each slow port was looked at twice (the first look's two connections, then the second look's).
    for (const port of more.slice(0, 9)) {
      expect(connections.get(port)).toBeGreaterThanOrEqual(4);
    }
    const cleartext = detection.findings.filter((f) => f.rule_id === 'infra.ftp.cleartext');
    expect(cleartext).toHaveLength(1);
    const verdict = detection.findings.find((f) => f.rule_id === 'infra.host.tarpit');
    expect(verdict?.evidence).toMatch(/^20 of the 20 scanned ports accepted a connection; 20 answered alike/);
  });
});
