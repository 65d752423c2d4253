// The scanner's HTTP client on answers that break the protocol in ways real servers do.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { TargetPolicy } from '../target-policy.ts';
import { HttpClient } from './http-client.ts';

let server: net.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A raw server that answers every connection with `answer` and then closes it. */
async function rawServer(answer: string): Promise<string> {
  server = net.createServer((socket) => {
    socket.once('data', () => socket.end(answer));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/ftp/`;
}

describe('HttpClient', () => {
  it('keeps a body that ends before its Content-Length, as browsers and curl do', async () => {
    const body = '<title>listing directory /ftp/</title>';
    const url = await rawServer(
      `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${body.length + 59}\r\n\r\n${body}`,
    );
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    const response = await client.request(url);
    expect(response.status).toBe(200);
    expect(response.body).toBe(body);
    client.close();
  });

  it('still fails on a connection closed before any answer', async () => {
    const url = await rawServer('');
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    await expect(client.request(url)).rejects.toThrow();
    expect(await client.tryRequest(url)).toBeNull();
    client.close();
  });
});
