import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitRequestBody } from './body-limit.ts';
import { writeInPieces } from '../../tests/helpers/stream-body.ts';

const MAX = 64;
const app = new Hono();
app.use('*', limitRequestBody({ maxSize: MAX, onError: (c) => c.json({ error: 'too large' }, 413) }));
app.post('/echo', async (c) => c.json({ received: await c.req.text() }));
app.get('/get', (c) => c.json({ ok: true }));

let server: ServerType;
let port = 0;
beforeAll(async () => {
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A raw HTTP/1.1 request, so the test decides exactly which length headers go out. */
function send(
  headers: Record<string, string>,
  chunks: string[],
  path = '/echo',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The server may answer 413 and close before the whole body is written.
    req.on('error', reject);
    for (const chunk of chunks) {
      req.write(chunk);
    }
    req.end();
  });
}

describe('limitRequestBody', () => {
  it('passes a body of declared length within the limit to the handler, whole', async () => {
    const body = 'x'.repeat(MAX);
    const res = await send({ 'content-length': String(MAX) }, [body]);
    expect(res).toEqual({ status: 200, body: JSON.stringify({ received: body }) });
  });

  it('refuses a declared length over the limit before reading the body', async () => {
    const res = await send({ 'content-length': String(MAX + 1) }, ['y'.repeat(MAX + 1)]);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: 'too large' });
  });

  it('counts a chunked body as it streams in: within the limit it arrives whole, over it is refused', async () => {
    const ok = await send({ 'transfer-encoding': 'chunked' }, ['a'.repeat(30), 'b'.repeat(30)]);
    expect(ok).toEqual({ status: 200, body: JSON.stringify({ received: 'a'.repeat(30) + 'b'.repeat(30) }) });
    const over = await send({ 'transfer-encoding': 'chunked' }, ['a'.repeat(40), 'b'.repeat(40)]);
    expect(over.status).toBe(413);
  });

  it('drains a chunked body streamed far over the limit, so its client finishes sending before the 413', async () => {
    // 32 MB in 64 kB pieces, far more than the sockets buffer for a server that stopped reading: the client
    // can only finish sending if the server reads (and drops) what it refuses.
    const outcome = await new Promise<{ status: number; sentAll: boolean }>((resolve, reject) => {
      let sentAll = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/echo',
          method: 'POST',
          headers: { 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, sentAll }));
        },
      );
      req.on('error', reject);
      req.on('finish', () => (sentAll = true));
      writeInPieces(req, Buffer.alloc(65536, 'x'), 512);
    });
    expect(outcome).toEqual({ status: 413, sentAll: true });
  });

  it('lets a request without a body through', async () => {
    const empty = await send({ 'content-length': '0' }, []);
    expect(empty).toEqual({ status: 200, body: JSON.stringify({ received: '' }) });
    expect(await (await app.request('/get')).json()).toEqual({ ok: true });
  });

  it('counts a body handed over in process without a declared length', async () => {
    const within = await app.request('/echo', { method: 'POST', body: 'w'.repeat(MAX) });
    expect(await within.json()).toEqual({ received: 'w'.repeat(MAX) });
    const over = await app.request('/echo', { method: 'POST', body: 'w'.repeat(MAX + 1) });
    expect(over.status).toBe(413);
  });
});
