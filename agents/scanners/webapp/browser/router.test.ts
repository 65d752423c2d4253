import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ScanBrowserRequest } from '../../../../shared/scan-browser.ts';
import { HttpClient } from '../../core/http-client.ts';
import { TargetPolicy } from '../../target-policy.ts';
import { ScanSession } from '../auth/session.ts';
import { BrowserRouter } from './router.ts';

let server: http.Server;
let origin = '';
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.cookie ?? ''} ${req.headers['user-agent'] ?? ''}`);
    if (req.url === '/old') {
      res.writeHead(302, { location: '/new', 'set-cookie': 'sid=1; Path=/; HttpOnly' }).end();
    } else if (req.url === '/away') {
      res.writeHead(302, { location: 'http://elsewhere.example/' }).end();
    } else if (req.url === '/api/moved') {
      res.writeHead(301, { location: '/api/data' }).end();
    } else {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': '11',
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end('{"ok":true}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const request = (url: string, more: Partial<ScanBrowserRequest> = {}): ScanBrowserRequest => ({
  url,
  method: 'GET',
  headers: { 'user-agent': 'HeadlessChrome', cookie: 'c=3', 'accept-encoding': 'gzip' },
  body: null,
  kind: 'xhr',
  navigation: false,
  ...more,
});

const router = (mode: 'local' | 'hosted' = 'local') =>
  new BrowserRouter(new HttpClient({ policy: new TargetPolicy(mode), maxRequests: 50 }), origin);

describe('BrowserRouter', () => {
  it("answers the page's requests through the scanner's client, and records them", async () => {
    const r = router();
    const answer = await r.route(request(`${origin}/api/data`));
    expect(answer).toMatchObject({ status: 200, body: '{"ok":true}' });
    if ('status' in answer) {
      expect(answer.headers).toContainEqual(['set-cookie', 'a=1']);
      expect(answer.headers).toContainEqual(['set-cookie', 'b=2']);
      // Lengths and encodings are the browser's business once the body is whole.
      expect(answer.headers.map(([n]) => n)).not.toContain('content-length');
    }
    expect(seen.at(-1)).toMatch(/^GET \/api\/data c=3 Vigil-Scanner/);
    expect(r.exchanges).toHaveLength(1);
    expect(r.lastSeen.cookie).toBe('c=3');
  });

  it('refuses other origins and what no check reads, without sending anything', async () => {
    const r = router();
    const before = seen.length;
    expect(await r.route(request('http://127.0.0.2:9/x'))).toEqual({ refused: 'another origin' });
    expect(await r.route(request(`${origin}/logo.png`, { kind: 'image' }))).toEqual({
      refused: 'image not needed',
    });
    expect(await r.route(request('https://cdn.example/lib.js', { kind: 'script' }))).toEqual({
      refused: 'another origin',
    });
    expect(r.foreignScripts).toEqual(new Set(['https://cdn.example/lib.js']));
    expect(seen.length).toBe(before);
  });

  it('turns a redirected navigation into a client-side one that keeps its cookies', async () => {
    const answer = await router().route(request(`${origin}/old`, { kind: 'document', navigation: true }));
    expect(answer).toMatchObject({ status: 200 });
    if ('status' in answer) {
      expect(answer.body).toContain(`url=${origin}/new`);
      expect(answer.headers).toContainEqual(['set-cookie', 'sid=1; Path=/; HttpOnly']);
    }
    const away = await router().route(request(`${origin}/away`, { kind: 'document', navigation: true }));
    expect('status' in away && away.body).toContain('Left the scanned site');
  });

  it('follows redirects of sub-requests on the origin, and refuses those that leave it', async () => {
    expect(await router().route(request(`${origin}/api/moved`))).toMatchObject({ status: 200 });
    expect(await router().route(request(`${origin}/away`))).toEqual({ refused: 'redirects off the site' });
    // A refused navigation stays on the page (204), where a sub-request fails.
    expect(await router().route(request('http://elsewhere.example/', { navigation: true }))).toMatchObject({
      status: 204,
    });
  });

  it("refuses what the hosted policy refuses, even on the target's own origin", async () => {
    const before = seen.length;
    const hosted = router('hosted');
    const answer = await hosted.route(request(`${origin}/api/data`));
    expect(answer).toMatchObject({ refused: expect.stringMatching(/not a public address/) as unknown });
    expect(seen.length).toBe(before);
  });

  it('never sends a logout request once the scan has a session', async () => {
    const client = new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 50 });
    const r = new BrowserRouter(client, origin);
    client.useSession(
      new ScanSession({ kind: 'cookie', cookie: 'sid=9', logged_in_marker: undefined }, origin, {
        renewable: false,
        logIn: () => Promise.resolve({ ok: true, detail: '' }),
        alive: () => Promise.resolve(true),
      }),
    );
    const before = seen.length;
    expect(await r.route(request(`${origin}/api/auth/logout`, { method: 'POST' }))).toMatchObject({
      refused: expect.stringMatching(/never ends its own session/) as unknown,
    });
    expect(seen.length).toBe(before);
  });
});
