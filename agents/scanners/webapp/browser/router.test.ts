import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ScanBrowserRequest, ScanBrowserTab } from '../../../../shared/scan-browser.ts';
import { HttpClient } from '../../core/http-client.ts';
import { TargetPolicy } from '../../target-policy.ts';
import { ScanSession } from '../auth/session.ts';
import { BrowserRouter } from './router.ts';
import { routerLimits } from './router-answers.ts';

let server: http.Server;
let origin = '';
const seen: string[] = [];
/** Requests of /slow being answered right now, and the most at once. */
const slow = { now: 0, most: 0 };
const big = JSON.stringify({ rows: 'r'.repeat(600 * 1024) });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.cookie ?? ''} ${req.headers['user-agent'] ?? ''}`);
    if (req.url === '/old') {
      res.writeHead(302, { location: '/new', 'set-cookie': 'sid=1; Path=/; HttpOnly' }).end();
    } else if (req.url === '/away') {
      res.writeHead(302, { location: 'http://elsewhere.example/' }).end();
    } else if (req.url === '/api/auth/login') {
      res.writeHead(302, { location: '/api/data', 'set-cookie': 'tok=7; HttpOnly' }).end();
    } else if (req.url === '/api/late') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 400);
    } else if (req.url === '/api/moved') {
      res.writeHead(301, { location: '/api/data' }).end();
    } else if (req.url === '/api/big') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(big);
    } else if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(
        `const term = new URLSearchParams(location.search).get('term'); /* ${'x'.repeat(300 * 1024)} */`,
      );
    } else if (req.url === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css' }).end(`body{}/*${'y'.repeat(3 * 1024 * 1024)}*/`);
    } else if (req.url?.startsWith('/slow')) {
      slow.now += 1;
      slow.most = Math.max(slow.most, slow.now);
      setTimeout(() => {
        slow.now -= 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, 150);
    } else if (req.url === '/drip') {
      // One byte every 200 ms, for as long as anyone listens: only a deadline ends it.
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 200);
      req.socket.on('close', () => clearInterval(drip));
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
    expect(r.take()).toHaveLength(1);
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

  it('waits for a slow call that sends something, where a GET that slow is taken for a long poll', async () => {
    for (const [method, recorded] of [
      ['GET', 0],
      ['POST', 1],
    ] as const) {
      const r = router();
      const call = r.route(
        request(`${origin}/api/late`, { method, body: method === 'POST' ? '<a/>' : null }),
      );
      // Long polls are 150 ms here; the call takes 400 ms.
      await r.settled(50, 5000, undefined, 150);
      expect(r.take().filter((e) => e.request.url.endsWith('/api/late'))).toHaveLength(recorded);
      await call;
    }
  });

  it('keeps a call answered after its page was read apart from the next page, as a late call of the site', async () => {
    const r = router();
    const call = r.route(request(`${origin}/api/late`, { method: 'POST', body: '<a/>' }));
    const page = r.route(request(`${origin}/api/late`, { kind: 'document', navigation: true }));
    // The settle budget (100 ms) ends before the 400 ms answers: the page is read without them.
    await r.settled(50, 100);
    expect(r.take()).toEqual([]);
    r.startVisit();
    await Promise.all([call, page]);
    await r.route(request(`${origin}/api/data`, { kind: 'document', navigation: true }));
    expect(r.take().map((e) => new URL(e.request.url).pathname)).toEqual(['/api/data']);
    // The late API call is kept; the late document of a page already read is not.
    expect(r.takeLate().map((e) => [e.request.method, new URL(e.request.url).pathname])).toEqual([
      ['POST', '/api/late'],
    ]);
    expect(r.takeLate()).toEqual([]);
  });

  it('follows redirects of sub-requests on the origin, and refuses those that leave it', async () => {
    expect(await router().route(request(`${origin}/api/moved`))).toMatchObject({ status: 200 });
    expect(await router().route(request(`${origin}/away`))).toEqual({ refused: 'redirects off the site' });
    // A cookie set on the way reaches the browser as a real browser keeps it: the hop's default path.
    const hopped = await router().route(request(`${origin}/api/auth/login`));
    expect(hopped).toMatchObject({ status: 200, body: '{"ok":true}' });
    if ('status' in hopped) {
      expect(hopped.headers.filter(([name]) => name === 'set-cookie')).toEqual([
        ['set-cookie', 'tok=7; HttpOnly; Path=/api/auth'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
    }
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

  it('gives the page whole answers but keeps only what the checks read, and what scripts read', async () => {
    const r = router();
    const answer = await r.route(request(`${origin}/api/big`));
    expect('body' in answer && answer.body.length).toBe(big.length);
    await r.route(request(`${origin}/app.js`, { kind: 'script' }));
    const css = await r.route(request(`${origin}/style.css`, { kind: 'stylesheet' }));
    // A style sheet is read no further than a page needs one.
    expect('body' in css && css.body.length).toBe(routerLimits.readBytes.stylesheet);
    const [api, script, style] = r.take();
    expect(api!.response!.body).toHaveLength(routerLimits.keepPrefix);
    expect(big.startsWith(api!.response!.body)).toBe(true);
    expect(script!.response!.body).toBe('');
    expect(style!.response!.body).toBe('');
    expect(r.scriptParams).toEqual(new Set(['term']));
    expect(r.counts).toMatchObject({ trimmed: 1 });
    expect(r.take()).toEqual([]);
  });

  it('keeps kept bodies within the budget of the scan', () => {
    const r = router();
    const response = {
      url: origin,
      status: 200,
      headers: {},
      body: 'b'.repeat(routerLimits.retainBytes - 10),
      redirects: [],
    };
    expect(r.retain(response).body).toHaveLength(routerLimits.retainBytes - 10);
    expect(r.retain({ ...response, body: 'more than ten bytes' }).body).toBe('');
    expect(r.counts.dropped).toBe(1);
  });

  it("sends a flood of a page's requests a few at a time, within a quota per visit and for the rendering", async () => {
    const r = new BrowserRouter(
      new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 1000 }),
      origin,
      {
        maxRequests: 400,
      },
    );
    slow.most = 0;
    const flood = Array.from({ length: routerLimits.perVisit + 20 }, (_, i) =>
      r.route(request(`${origin}/slow?n=${i}`)),
    );
    const answers = await Promise.all(flood);
    expect(slow.most).toBeLessThanOrEqual(routerLimits.concurrent);
    // The queue holds a bounded number; the rest of the burst is refused at once, as is the visit's excess.
    const refused = answers.filter((a) => 'refused' in a).map((a) => ('refused' in a ? a.refused : ''));
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(refused).toContain(`the page made over ${routerLimits.perVisit} requests`);
    expect(r.counts.refused).toBe(refused.length);
    r.startVisit();
    await r.route(request(`${origin}/next`, { kind: 'document', navigation: true }));
    // A new visit may send again, until the rendering's own total is spent.
    let last: Awaited<ReturnType<typeof r.route>> = { refused: '' };
    for (let i = 0; i < 500 && !('refused' in last && /rendering used/.test(last.refused)); i += 1) {
      last = await r.route(request(`${origin}/api/data?i=${i}`));
    }
    expect(last).toEqual({ refused: 'the rendering used its 400 requests' });
  });

  it("starts the next page's quota and turns with its navigation, whatever the page left behind sends", async () => {
    const r = new BrowserRouter(
      new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 1000 }),
      origin,
    );
    const navigate = (page: string) =>
      r.route(request(`${origin}${page}`, { kind: 'document', navigation: true }));
    await navigate('/flood');
    // The page fills every turn and the queue behind them (/slow answers after 150 ms each).
    const sent = Array.from({ length: routerLimits.concurrent + routerLimits.queued }, (_, i) =>
      r.route(request(`${origin}/slow?left=${i}`)),
    );
    r.startVisit();
    // Until the next page's navigation is sent (for seconds when the flooding page must be cut first), all
    // the page left behind sends is refused, uncounted: it cannot spend the next page's quota.
    const refusedBefore = r.counts.refused;
    const meanwhile = await Promise.all(
      Array.from({ length: routerLimits.perVisit + 5 }, (_, i) =>
        r.route(request(`${origin}/api/ping?m=${i}`)),
      ),
    );
    expect(new Set(meanwhile.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify({ refused: 'the tab is leaving the page that sent it' })]),
    );
    // (Counted as refused, as are the old page's requests that still waited for a turn.)
    expect(r.counts.refused - refusedBefore).toBe(routerLimits.perVisit + 5 + routerLimits.queued);
    // While the next navigation waits for its answer (150 ms here; seconds behind a flood), the new page
    // does not exist yet either.
    const arriving = navigate('/slow?page=next');
    expect(await r.route(request(`${origin}/api/ping?from=left`))).toEqual({
      refused: 'the tab is leaving the page that sent it',
    });
    expect(await arriving).toMatchObject({ status: 200 });
    // The new page is answered at once, not after the old queue drains (64 × 150 ms / 6 turns), with its
    // whole quota.
    const started = Date.now();
    expect(await r.route(request(`${origin}/api/account`))).toMatchObject({ status: 200 });
    expect(Date.now() - started).toBeLessThan(((routerLimits.queued * 150) / routerLimits.concurrent) * 0.8);
    // What still waited for a turn when the tab left was refused, not sent.
    const old = await Promise.all(sent);
    expect(
      old.filter((a) => 'refused' in a && a.refused === 'too many requests of the page at once').length,
    ).toBeGreaterThan(0);
  });

  it('passes the tab through a blank page between two pages, refusing what the old one sends meanwhile', async () => {
    const r = new BrowserRouter(
      new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 1000 }),
      origin,
    );
    const loads: string[] = [];
    const fromOld: Awaited<ReturnType<typeof r.route>>[] = [];
    const tab: ScanBrowserTab = {
      goto: async (url) => {
        loads.push(url);
        if (url === 'about:blank') {
          // The old document still sends until the blank page replaces it.
          fromOld.push(await r.route(request(`${origin}/api/ping?old=1`)));
          return;
        }
        await r.route(request(url, { kind: 'document', navigation: true }));
      },
      evaluate: () => Promise.reject(new Error('not used')),
      url: () => Promise.resolve(loads.at(-1) ?? 'about:blank'),
    };
    await r.visit(tab, `${origin}/account`, 5000);
    expect(loads).toEqual(['about:blank', `${origin}/account`]);
    expect(fromOld).toEqual([{ refused: 'the tab is leaving the page that sent it' }]);
    expect(await r.route(request(`${origin}/api/account`))).toMatchObject({ status: 200 });
    expect(r.take().map((e) => new URL(e.request.url).pathname)).toEqual(['/account', '/api/account']);
  });

  it('answers the page in time when the server drips, and stops sending while too many are unanswered', async () => {
    const saved = { answerMs: routerLimits.answerMs, abandoned: routerLimits.abandoned };
    Object.assign(routerLimits, { answerMs: 300, abandoned: 2 });
    const client = new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 50 });
    try {
      const r = new BrowserRouter(client, origin);
      const started = Date.now();
      const answers = await Promise.all([1, 2].map(() => r.route(request(`${origin}/drip`))));
      expect(Date.now() - started).toBeLessThan(5000);
      expect(answers).toEqual([
        { refused: 'no answer within 300 ms' },
        { refused: 'no answer within 300 ms' },
      ]);
      expect(await r.route(request(`${origin}/api/data`))).toEqual({
        refused: '2 requests of the page are still unanswered',
      });
    } finally {
      Object.assign(routerLimits, saved);
      client.close();
    }
  });

  it('gives a new page turns of its own: a flood the last page left behind cannot starve it', async () => {
    const r = new BrowserRouter(
      new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 1000 }),
      origin,
    );
    // The last page fills every turn and the queue behind them (/slow answers after 150 ms each).
    const leftBehind = Array.from({ length: routerLimits.concurrent + routerLimits.queued }, (_, i) =>
      r.route(request(`${origin}/slow?old=${i}`)),
    );
    r.startVisit();
    await r.route(request(`${origin}/next`, { kind: 'document', navigation: true }));
    // The new page's request gets a turn at once, not after the old queue drains (64 × 150 ms / 6 turns).
    const started = Date.now();
    const answer = await r.route(request(`${origin}/api/data`));
    expect(answer).toMatchObject({ status: 200 });
    const waited = Date.now() - started;
    const old = await Promise.all(leftBehind);
    // What still waited for a turn of the page that left was refused, not sent.
    const refused = old.filter((a) => 'refused' in a);
    expect(refused.length).toBeGreaterThan(0);
    expect(
      refused.every((a) => 'refused' in a && a.refused === 'too many requests of the page at once'),
    ).toBe(true);
    // Far below the old queue's own time: the new page did not wait for it to be served.
    expect(waited).toBeLessThan(((routerLimits.queued * 150) / routerLimits.concurrent) * 0.8);
  });
});
