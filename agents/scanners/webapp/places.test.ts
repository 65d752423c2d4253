// The places the per-place checks run in: gathered from every source, the wordlist judged against the
// site's own answer for a missing directory, bounded in places and in requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpClient } from '../core/http-client.ts';
import { TargetPolicy } from '../target-policy.ts';
import { findPlaces, MAX_PLACES, Places, PLACE_WORDLIST } from './places.ts';

describe('Places', () => {
  const origin = new URL('http://127.0.0.1:8080/');
  it('keeps each directory and its parents once, root first, with what found it first', () => {
    const places = new Places(origin);
    places.add([new URL('/shop/item.html', origin)], 'linked');
    places.add([new URL('/api/v1/users?id=1', origin), new URL('/shop/cart', origin)], 'discovered');
    places.add([new URL('/archive/incoming/x', origin)], 'listed');
    places.add([new URL('https://elsewhere.example/admin/x', origin)], 'wordlist');
    expect(places.list().map((u) => u.pathname)).toEqual([
      '/',
      '/shop/',
      '/api/',
      '/api/v1/',
      '/archive/',
      '/archive/incoming/',
    ]);
    expect(places.report()).toEqual({
      checked: 6,
      linked: 2,
      discovered: 2,
      listed: 2,
      wordlist: 0,
      wordlist_requests: 0,
    });
  });

  it('gives the checks at most MAX_PLACES places, and counts only those', () => {
    const places = new Places(origin);
    places.add(
      Array.from({ length: MAX_PLACES + 10 }, (_, i) => new URL(`/d${i}/x`, origin)),
      'linked',
    );
    expect(places.list()).toHaveLength(MAX_PLACES);
    expect(places.report().checked).toBe(MAX_PLACES);
  });
});

describe('findPlaces', () => {
  let server: http.Server;
  let origin: URL;
  const asked: string[] = [];
  beforeAll(async () => {
    // Missing directories are 404; /api/ is a directory without an index (403); /uploads/ a page;
    // /admin/ answers 404 with a page of its own words, which is still the site's missing answer.
    server = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/api/') {
        res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
      } else if (req.url === '/api/v2/') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify([
            { id: 1, email: 'alice.martin@acme.test', role: 'admin' },
            { id: 2, email: 'bob@acme.test', role: 'staff' },
          ]),
        );
      } else if (req.url === '/uploads/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Uploads</h1><p>Drop files.</p>');
      } else {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });

  it('adds the wordlist entries the site has, and none it answers as missing', async () => {
    const places = await findPlaces(
      client(),
      origin,
      { linked: [new URL('/shop/item.html', origin)], discovered: [new URL('/rest/orders', origin)] },
      { maxRequests: 100, tick: () => undefined },
    );
    expect(places.list().map((u) => u.pathname)).toEqual([
      '/',
      '/shop/',
      '/rest/',
      '/api/',
      '/api/v2/',
      '/uploads/',
    ]);
    const report = places.report();
    expect(report).toMatchObject({ linked: 2, discovered: 1, wordlist: 3 });
    // What a wordlist place gives anyone is judged on the answer already fetched.
    expect(places.findings.map((f) => [f.rule_id, new URL(f.location).pathname])).toEqual([
      ['web.api.personal-data', '/api/v2/'],
    ]);
    // Each entry not already known once, and the missing answers of their parents (/, /api/, /rest/).
    expect(report.wordlist_requests).toBeLessThanOrEqual(PLACE_WORDLIST.length + 3);
    expect(asked).not.toContain('/rest/');
  });

  it('stops asking at its request budget', async () => {
    asked.length = 0;
    const places = await findPlaces(
      client(),
      origin,
      { linked: [], discovered: [] },
      { maxRequests: 6, tick: () => undefined },
    );
    // Up to the lanes in flight when the budget is reached (4) past it.
    expect(places.report().wordlist_requests).toBeLessThanOrEqual(6 + 4);
    expect(asked.length).toBe(places.report().wordlist_requests);
  });
});
