// Writes without a session judged on loopback APIs that answer like a careless check would want: a
// catch-all, an API that answers 201 but keeps nothing, one that answers 200 to PATCH and 204 to DELETE but
// changes nothing, and one whose reads need a session while its POST does not. The scan is logged in (a
// cookie); every write of the check goes without it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpClient } from '../../core/http-client.ts';
import type { HttpSession } from '../../core/http-client.ts';
import { TargetPolicy } from '../../target-policy.ts';
import type { Page } from '../crawl.ts';
import type { WriteInput } from './places.ts';
import { unauthWriteFindings } from './unauth-writes.ts';

type Kind = 'liar' | 'echo' | 'guarded-read';
const records: Record<Kind, Map<number, Record<string, unknown>>> = {
  liar: new Map([[1, { id: 1, title: 'Keep me' }]]),
  echo: new Map([[1, { id: 1, title: 'Keep me' }]]),
  'guarded-read': new Map([[1, { id: 1, title: 'Keep me' }]]),
};
const methods: string[] = [];
let server: http.Server;
let origin: URL;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const [, api, kind, id] = url.pathname.split('/') as [
        string,
        string,
        Kind | undefined,
        string | undefined,
      ];
      methods.push(`${req.method} ${url.pathname}`);
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const store = kind ? records[kind] : undefined;
      if (api !== 'api' || !store) {
        // The catch-all of a single-page app: 200 and the shell, whatever the method.
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><div id=app></div>');
      }
      const item = id ? store.get(Number(id)) : undefined;
      if (req.method === 'GET') {
        if (kind === 'guarded-read' && req.headers.cookie !== 'sid=ok') {
          return json(401, { error: 'sign in' });
        }
        return id ? (item ? json(200, item) : json(404, {})) : json(200, [...store.values()]);
      }
      if (req.method === 'POST' && !id) {
        const made = { id: store.size + 1, ...(JSON.parse(body) as object) };
        // The echo API answers as if it kept the record, and keeps nothing.
        if (kind !== 'echo') {
          store.set(made.id, made);
        }
        return json(201, made);
      }
      // The liar answers every change as done and changes nothing.
      return req.method === 'DELETE' ? res.writeHead(204).end() : json(200, item ?? {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A page the crawl fetched in the session: a list of records. */
const listPage = (path: string): Page => {
  const url = new URL(path, origin);
  return {
    url,
    response: {
      url: url.href,
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ id: 1, title: 'Keep me' }]),
      redirects: [],
    },
    facts: null,
    depth: 1,
  };
};

/** The scan's login, as the client applies it: a cookie on every request not sent anonymously. */
const session: HttpSession = {
  headers: () => ({ cookie: 'sid=ok' }),
  refuses: (_url, method, headers) => (method === 'DELETE' && 'cookie' in headers ? 'destructive' : null),
  renewed: () => Promise.resolve(false),
};

const input = (paths: string[]): WriteInput => ({
  client: new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000, session }),
  start: origin,
  pages: paths.map(listPage),
  endpoints: [],
  discovery: { endpoints: [], resources: [] },
  loggedIn: true,
});

describe('writes without a session', () => {
  it('proves nothing on a catch-all, an API that keeps nothing, or one that only says it changed', async () => {
    methods.length = 0;
    const findings = await unauthWriteFindings(
      input(['/app/list', '/api/echo', '/api/liar']),
      () => undefined,
    );
    expect(findings).toEqual([]);
    // The record the liar held is never sent a change: only the one the check made.
    expect(methods.filter((m) => /^(PATCH|PUT|DELETE) \/api\/liar\/1$/.test(m))).toEqual([]);
    expect(methods.filter((m) => /^(PATCH|PUT|DELETE) /.test(m))).toEqual([
      'PATCH /api/liar/2',
      'PUT /api/liar/2',
      'DELETE /api/liar/2',
    ]);
    expect(records.liar.get(1)).toEqual({ id: 1, title: 'Keep me' });
  });

  it('files a POST taken without a session where reading needs one', async () => {
    const findings = await unauthWriteFindings(input(['/api/guarded-read']), () => undefined);
    expect(findings.map((f) => f.rule_id)).toEqual(['web.auth.unauth-create']);
    expect(findings[0]!.evidence).toMatch(
      /GET \/api\/guarded-read without a session answered 401, yet POST .* answered 201 and created \/api\/guarded-read\/2 \(marker vigil-marker-[0-9a-f]{12}, read back\); cleanup: the record stays/,
    );
  });

  it('starts no write once its phase has ended', async () => {
    methods.length = 0;
    const ended = input(['/api/liar', '/api/guarded-read']);
    ended.signal = AbortSignal.abort();
    expect(await unauthWriteFindings(ended, () => undefined)).toEqual([]);
    expect(methods.filter((m) => !m.startsWith('GET '))).toEqual([]);
  });
});
