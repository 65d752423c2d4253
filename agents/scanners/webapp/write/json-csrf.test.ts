import { describe, expect, it } from 'vitest';

import type { HttpClient, HttpResponse, RequestInit } from '../../core/http-client.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import { foreignOrigin, jsonCsrfCandidates, jsonCsrfFindings } from './json-csrf.ts';

const origin = 'http://shop.test';
const answer = (status: number, body = '{"ok":true}'): HttpResponse => ({
  url: `${origin}/`,
  status,
  headers: { 'content-type': 'application/json' },
  body,
  redirects: [],
});

function call(path: string, body: Record<string, unknown>, extra: Partial<ApiCall> = {}): ApiCall {
  return {
    method: 'POST',
    url: new URL(path, origin),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    bodyShape: { type: 'json', fields: Object.keys(body) },
    response: answer(200),
    phase: 'session',
    ...extra,
  };
}

/** A server that answers `judge` for each request, and the requests it saw. */
function server(judge: (init: RequestInit) => number): { client: HttpClient; seen: RequestInit[] } {
  const seen: RequestInit[] = [];
  const client = {
    tryRequest: (_url: URL, init: RequestInit = {}) => {
      seen.push(init);
      return Promise.resolve(answer(judge(init)));
    },
  } as unknown as HttpClient;
  return { client, seen };
}

const exposed = [{ name: 'connect.sid', sameSite: null }];
const cookieOf = (init: RequestInit) => init.headers?.cookie;

describe('JSON endpoints open to a cross-site simple request', () => {
  it("takes the logged-in JSON POSTs of the app's own origin, once per path", () => {
    const found = jsonCsrfCandidates(
      [
        call('/api/profile', { nickname: 'vigil' }),
        call('/api/profile', { nickname: 'again' }),
        call('/api/notes', { text: 'vigil', _csrf: 'k3y' }),
        call('/api/feedback', { text: 'vigil' }, { phase: 'anonymous' }),
        call('/api/profile/photo', { url: 'x' }, { method: 'PUT' }),
        call('http://cdn.test/api/track', { e: 1 }),
        call('/api/login', { email: 'a', password: 'b' }),
        call('/api/logout', { all: true }),
        call('/api/orders', { item: 1 }),
        call('/api/address/delete', { id: 1 }),
        call('/api/form', { a: 1 }, { bodyShape: { type: 'form', fields: ['a'] }, body: 'a=1' }),
        call('/api/list', {}, { body: '[1,2]' }),
      ],
      origin,
    );
    expect(found.map((c) => c.url.pathname)).toEqual(['/api/profile', '/api/notes']);
  });

  it('reports an endpoint that takes text/plain with the session cookie and refuses it without', async () => {
    const { client, seen } = server((init) => (cookieOf(init) ? 200 : 401));
    const findings = await jsonCsrfFindings(
      {
        client,
        origin,
        apiCalls: [call('/api/notes', { text: 'vigil', _csrf: 'k3y' })],
        exposed,
        cookieFor: () => 'connect.sid=s%3Aabc',
      },
      () => undefined,
    );
    expect(findings.map((f) => f.location)).toEqual([`${origin}/api/notes`]);
    expect(findings[0]!.evidence).toMatch(
      /HTTP 200, as the app's own was \(HTTP 200\); without the cookies: HTTP 401/,
    );
    // What was sent: the cookie alone, text/plain, a foreign Origin, the anti-forgery field left out.
    expect(seen[0]).toMatchObject({
      method: 'POST',
      anonymous: true,
      body: '{"text":"vigil"}',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin: foreignOrigin,
        cookie: 'connect.sid=s%3Aabc',
      },
    });
    expect(cookieOf(seen[1]!)).toBeUndefined();
  });

  it('stays silent when the forged request is refused, when the session is not needed, and when SameSite protects it', async () => {
    const input = (judge: (init: RequestInit) => number, cookies = exposed) => ({
      client: server(judge).client,
      origin,
      apiCalls: [call('/api/notes', { text: 'vigil' })],
      exposed: cookies,
      cookieFor: () => 'connect.sid=s%3Aabc',
    });
    // The parser refuses text/plain (415), or the Origin check refuses it (403).
    expect(
      await jsonCsrfFindings(
        input(() => 415),
        () => undefined,
      ),
    ).toEqual([]);
    expect(
      await jsonCsrfFindings(
        input(() => 403),
        () => undefined,
      ),
    ).toEqual([]);
    // Anyone may post there, cookie or not: no forgery of the session (another check's matter).
    expect(
      await jsonCsrfFindings(
        input(() => 200),
        () => undefined,
      ),
    ).toEqual([]);
    // SameSite keeps the cookie home: nothing is sent at all.
    const quiet = server(() => 200);
    expect(
      await jsonCsrfFindings({ ...input(() => 200), client: quiet.client, exposed: null }, () => undefined),
    ).toEqual([]);
    expect(quiet.seen).toEqual([]);
  });
});
