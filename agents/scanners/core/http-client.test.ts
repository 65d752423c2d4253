// The scanner's HTTP client against raw loopback servers that drip, stall, lie and break the protocol in
// the ways real and hostile servers do: every deadline ends the request, and every answer a browser reads
// is read, with a note of what was wrong.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

import { afterEach, describe, expect, it } from 'vitest';

import { TargetPolicy } from '../target-policy.ts';
import {
  cookiesSet,
  HttpClient,
  HttpProtocolError,
  HttpTimeoutError,
  ScanStoppedError,
} from './http-client.ts';
import type { HttpClientOptions } from './http-client.ts';

const servers: (net.Server | tls.Server)[] = [];
const clients: HttpClient[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  timers.splice(0).forEach((timer) => clearInterval(timer));
  clients.splice(0).forEach((client) => client.close());
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

interface Raw {
  url: string;
  /** Connections the server accepted. */
  connections: () => number;
  /** Connections the client has closed. */
  closed: () => number;
}

/** A raw server: `onRequest` gets each connection's socket once its first request bytes arrive. */
async function rawServer(onRequest: (socket: net.Socket, request: string) => void): Promise<Raw> {
  let connections = 0;
  let closed = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    socket.on('close', () => (closed += 1));
    socket.once('data', (data) => onRequest(socket, data.toString('latin1')));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`,
    connections: () => connections,
    closed: () => closed,
  };
}

/** Answers every connection with `answer` and closes it. */
const answering = (answer: string) => rawServer((socket) => socket.end(answer, 'latin1'));

/** Writes `head`, then one byte of `drip` every `everyMs`, for ever. */
const dripping = (head: string, everyMs = 40, drip = 'x') =>
  rawServer((socket) => {
    socket.write(head);
    timers.push(setInterval(() => socket.writable && socket.write(drip), everyMs));
  });

function client(options: Partial<HttpClientOptions> = {}): HttpClient {
  const made = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000, ...options });
  clients.push(made);
  return made;
}

describe('HttpClient deadlines', () => {
  it('gives up on headers that drip in (the idle timeout alone would wait for ever)', async () => {
    const server = await dripping('HTTP/1.1 200 OK\r\nx-drip: ', 40, 'a');
    const error = await client({ timeoutMs: 400, headersTimeoutMs: 600 })
      .request(server.url)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTimeoutError);
    expect((error as HttpTimeoutError).deadline).toBe('headers');
  });

  it('returns what arrived of a dripping body at the whole-response deadline, marked cut short', async () => {
    const server = await dripping('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n<title>slow</title>');
    const response = await client({ timeoutMs: 400, responseTimeoutMs: 800 }).request(server.url);
    expect(response.status).toBe(200);
    expect(response.body.startsWith('<title>slow</title>x')).toBe(true);
    expect(response.cutShort).toBe('deadline');
    // The answer never ended: its time must not read as a server's delay to a time-based probe.
    expect(response.elapsedMs).toBeUndefined();
  });

  it('cuts short a body that stops mid-way and stays silent', async () => {
    const server = await rawServer((socket) =>
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\npartial'),
    );
    const response = await client({ timeoutMs: 300 }).request(server.url);
    expect(response.body).toBe('partial');
    expect(response.cutShort).toBe('idle');
    expect(response.malformed).toEqual(['body ended after 7 of 50 announced bytes']);
  });

  it('fails a server that accepts and says nothing with the idle timeout', async () => {
    const server = await rawServer(() => undefined);
    const error = await client({ timeoutMs: 300 })
      .request(server.url)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTimeoutError);
    expect((error as HttpTimeoutError).deadline).toBe('idle');
  });

  it('takes per-request deadlines over the client defaults', async () => {
    const server = await dripping('HTTP/1.1 200 OK\r\n\r\n');
    const response = await client({ timeoutMs: 400, responseTimeoutMs: 60_000 }).request(server.url, {
      responseTimeoutMs: 500,
    });
    expect(response.cutShort).toBe('deadline');
  });

  it('never gives headers less time than the silence a request is allowed (time-based probes)', async () => {
    const server = await rawServer((socket) => {
      setTimeout(() => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'), 700);
    });
    const response = await client({ headersTimeoutMs: 200 }).request(server.url, { timeoutMs: 5000 });
    expect(response.body).toBe('ok');
    expect(response.elapsedMs).toBeGreaterThanOrEqual(650);
  });

  it('gives a path that dripped past its deadline less patience from then on', async () => {
    const server = await dripping('HTTP/1.1 200 OK\r\n\r\n', 20);
    // A silence of 1.5 s, never seen between bytes 20 ms apart even on a busy host (200 ms once was).
    const made = client({ timeoutMs: 1500, responseTimeoutMs: 3000, impatientMs: 600 });
    const first = await made.request(server.url);
    const second = await made.request(`${server.url}?again=1`);
    expect(first.cutShort).toBe('deadline');
    expect(second.cutShort).toBe('deadline');
    // Bytes counted instead of time measured: the second wait was a fraction of the first.
    expect(second.body.length).toBeLessThan(first.body.length / 2);
  });

  it('ends a dripping request at once when the scan is stopped', async () => {
    const server = await dripping('HTTP/1.1 200 OK\r\n\r\n');
    const stop = new AbortController();
    const pending = client({ signal: stop.signal, responseTimeoutMs: 60_000 })
      .request(server.url)
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop.abort();
    expect(await pending).toBeInstanceOf(ScanStoppedError);
    await expect.poll(() => server.closed()).toBe(1);
  });
});

describe('HttpClient reads what browsers read', () => {
  it('keeps a body that ends before its Content-Length, as browsers and curl do', async () => {
    const body = '<title>listing directory /ftp/</title>';
    const server = await answering(
      `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${body.length + 59}\r\n\r\n${body}`,
    );
    const response = await client().request(server.url);
    expect(response.status).toBe(200);
    expect(response.body).toBe(body);
    expect(response.cutShort).toBe('closed');
    expect(response.malformed).toEqual([
      `body ended after ${body.length} of ${body.length + 59} announced bytes`,
    ]);
  });

  it('still fails on a connection closed before any answer', async () => {
    const server = await answering('');
    await expect(client().request(server.url)).rejects.toThrow();
    expect(await client().tryRequest(server.url)).toBeNull();
  });

  it('reads a body longer than its Content-Length as browsers do: the announced bytes, the rest noted', async () => {
    const server = await answering('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello, and more after');
    const made = client();
    const response = await made.request(server.url);
    expect(response.body).toBe('hello');
    expect(response.malformed).toEqual(['16 bytes after the announced Content-Length, ignored']);
    // Node's parser refused it; the tolerant reader's second sending is counted like any request.
    expect(made.requests).toBe(2);
  });

  it('reads a 20 KB header (Node alone stops at 16 KB) and refuses 300 KB (past Chromium’s 256 KB)', async () => {
    const big = await answering(
      `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(20_000)}\r\ncontent-length: 2\r\n\r\nok`,
    );
    const response = await client().request(big.url);
    expect(response.body).toBe('ok');
    expect(response.headers['x-big']).toHaveLength(20_000);
    const huge = await answering(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(300_000)}\r\n\r\nok`);
    await expect(client().request(huge.url)).rejects.toBeInstanceOf(HttpProtocolError);
  });

  it('reads bare LF line ends and notes them', async () => {
    const server = await answering('HTTP/1.1 200 OK\ncontent-type: text/html\ncontent-length: 5\n\nhello');
    const response = await client().request(server.url);
    expect(response.body).toBe('hello');
    expect(response.malformed).toEqual(['lines end in a bare LF instead of CRLF']);
  });

  it('reads a Content-Length sent twice, and conflicting ones to the end of the connection', async () => {
    const same = await answering('HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 5\r\n\r\nhello');
    expect(await client().request(same.url)).toMatchObject({
      body: 'hello',
      malformed: ['Content-Length sent 2 times'],
    });
    const conflicting = await answering(
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 9\r\n\r\nhello wor',
    );
    const response = await client().request(conflicting.url);
    expect(response.body).toBe('hello wor');
    expect(response.malformed).toEqual([
      'Content-Length sent 2 times',
      'conflicting Content-Length (5, 9); read to the end of the connection',
    ]);
  });

  it('reads headers Node refuses (no colon, space before the colon, folded) and keeps the real ones', async () => {
    const server = await answering(
      'HTTP/1.1 200 OK\r\nthis is not a header\r\nx-frame-options : DENY\r\nx-note: one\r\n two\r\nset-cookie: a=1\r\nset-cookie: b=2\r\ncontent-length: 2\r\n\r\nok',
    );
    const response = await client().request(server.url);
    expect(response.status).toBe(200);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-note']).toBe('one two');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.malformed).toEqual([
      'a header line that is not a header, ignored: "this is not a header"',
      'space before the colon in header x-frame-options',
      'a header folded over two lines',
    ]);
  });

  it('keeps the body before a broken chunk', async () => {
    const server = await answering(
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nmore',
    );
    const response = await client().request(server.url);
    expect(response.body).toBe('hello');
    expect(response.cutShort).toBe('malformed');
  });

  it('fails bytes that are no HTTP at all with a typed error whose message is inert text', async () => {
    const server = await answering('\u001b[2J\u001b[32mAll clear\u001b[0m <html>hello</html>');
    const error = await client()
      .request(server.url)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpProtocolError);
    const message = (error as Error).message;
    expect(message).toContain('no HTTP status line');
    expect(message).toContain('\\x1b[2J');
    // eslint-disable-next-line no-control-regex -- asserting that no control character got through
    expect(message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('keeps the body before a broken chunk of an answer to a POST, without sending it twice', async () => {
    const server = await answering(
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n',
    );
    const response = await client().request(server.url, { method: 'POST', body: 'a=1' });
    expect(response.body).toBe('hello');
    expect(response.cutShort).toBe('malformed');
    expect(response.malformed?.[0]).toMatch(/^invalid body framing: /);
    expect(server.connections()).toBe(1);
  });

  it('does not send a POST twice to read a malformed answer', async () => {
    const server = await answering('HTTP/1.1 200 OK\r\nnot a header\r\n\r\nok');
    const error = await client()
      .request(server.url, { method: 'POST', body: 'a=1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpProtocolError);
    expect(server.connections()).toBe(1);
  });

  it('applies the deadlines to the tolerant reader too', async () => {
    const server = await dripping('HTTP/1.1 200 OK\r\nnot a header\r\n\r\nbody');
    const response = await client({ timeoutMs: 400, responseTimeoutMs: 800 }).request(server.url);
    expect(response.body.startsWith('bodyx')).toBe(true);
    expect(response.cutShort).toBe('deadline');
    expect(response.malformed).toContain('a header line that is not a header, ignored: "not a header"');
  });

  it('reads a malformed answer over TLS too (the tolerant reader makes its own TLS connection)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-http-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    const server = tls.createServer(
      { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) },
      (socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () =>
          socket.end('HTTP/1.1 200 OK\r\nnot a header\r\ncontent-length: 2\r\n\r\nok'),
        );
      },
    );
    rmSync(dir, { recursive: true });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
    const response = await client().request(url);
    expect(response.body).toBe('ok');
    expect(response.malformed).toEqual(['a header line that is not a header, ignored: "not a header"']);
  });

  it('notes Transfer-Encoding beside Content-Length, which Node reads leniently', async () => {
    const server = await answering(
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 99\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    );
    const response = await client().request(server.url);
    expect(response.body).toBe('hi');
    expect(response.malformed).toEqual(['both Transfer-Encoding: chunked and Content-Length; chunked read']);
  });
});

describe('HttpClient redirects', () => {
  /** /page redirects to /next with a cookie (the login hop of many apps); /next sets its own. */
  const redirecting = () =>
    rawServer((socket, request) =>
      socket.end(
        request.startsWith('GET /page ')
          ? 'HTTP/1.1 302 Found\r\nlocation: /app/next\r\nset-cookie: sid=1; HttpOnly\r\n' +
              'set-cookie: theme=dark; Path=/\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'
          : 'HTTP/1.1 200 OK\r\nset-cookie: seen=yes\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok',
        'latin1',
      ),
    );

  it('keeps the cookies each hop set, with the hop they came from, before the answer’s own', async () => {
    const server = await redirecting();
    const response = await client().request(server.url, { followRedirects: 'same-origin' });
    expect(response.url).toBe(server.url.replace('/page', '/app/next'));
    expect(response.headers['set-cookie']).toEqual(['seen=yes']);
    expect(cookiesSet(response)).toEqual([
      { url: server.url, line: 'sid=1; HttpOnly', earlier: true },
      { url: server.url, line: 'theme=dark; Path=/', earlier: true },
      { url: response.url, line: 'seen=yes', earlier: false },
    ]);
  });

  it('has no hop cookies when it does not follow', async () => {
    const server = await redirecting();
    const response = await client().request(server.url);
    expect(response.status).toBe(302);
    expect(response.earlierCookies).toBeUndefined();
    expect(cookiesSet(response).map((c) => c.earlier)).toEqual([false, false]);
  });
});

describe('HttpClient cookies in a session', () => {
  /** Echoes the Cookie header the request carried. */
  const echoingCookie = () =>
    rawServer((socket, request) => {
      const cookie = /^cookie: (.*)$/im.exec(request)?.[1]?.trim() ?? '';
      socket.end(
        `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: ${cookie.length}\r\n\r\n${cookie}`,
        'latin1',
      );
    });
  const session = {
    headers: () => ({ cookie: 'sid=abc; profile=old' }),
    refuses: () => null,
    renewed: () => Promise.resolve(false),
  };

  it("sends a request's own cookies first, then the session's", async () => {
    const server = await echoingCookie();
    const c = client({ session });
    expect((await c.request(server.url, { headers: { cookie: 'profile=new' } })).body).toBe(
      'profile=new; sid=abc; profile=old',
    );
    expect((await c.request(server.url)).body).toBe('sid=abc; profile=old');
    expect((await c.request(server.url, { headers: { cookie: 'profile=new' }, anonymous: true })).body).toBe(
      'profile=new',
    );
  });
});
