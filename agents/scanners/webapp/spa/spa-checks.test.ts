import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import { apiCallOf, endpointOf } from '../browser/api-calls.ts';
import type { Page } from '../crawl.ts';
import { apiHeaderFindings, sessionOnly } from './api-headers.ts';
import { emailsIn, personalFields } from './personal-data.ts';
import { storageFindings } from './storage.ts';

const origin = 'https://shop.example';
const response = (path: string, headers: HttpResponse['headers'] = {}, body = '{}'): HttpResponse => ({
  url: `${origin}${path}`,
  status: 200,
  headers: { 'content-type': 'application/json', ...headers },
  body,
  redirects: [],
});
const call = (
  path: string,
  phase: ApiCall['phase'],
  headers: HttpResponse['headers'] = {},
  auth = true,
): ApiCall => ({
  method: 'GET',
  url: new URL(path, origin),
  headers: auth ? { authorization: 'Bearer t' } : {},
  body: null,
  bodyShape: { type: 'none', fields: [] },
  response: response(path, headers),
  phase,
});
const jwt = (claims: object) =>
  `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2lnbmF0dXJl`;

describe('API header checks', () => {
  it('reports nosniff once, at the first URL a visitor sees, with the count', () => {
    const calls = [
      call('/api/z', 'anonymous', {}, false),
      call('/api/a', 'session'),
      call('/api/b', 'anonymous', { 'x-content-type-options': 'nosniff, nosniff' }, false),
    ];
    const [nosniff, ...rest] = apiHeaderFindings(calls, []);
    expect(nosniff).toMatchObject({ rule_id: 'web.api.nosniff-missing', location: `${origin}/api/z` });
    expect(nosniff!.evidence).toContain('and 1 more: GET /api/a');
    // Only the logged-in call without no-store is a caching problem; public answers may be cached.
    expect(rest.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.api.cache-control-missing', `${origin}/api/a`],
    ]);
  });

  it('leaves framework disclosure to the HTML check when the pages show it already', () => {
    const calls = [call('/api/a', 'anonymous', { 'x-powered-by': 'Express' }, false)];
    expect(apiHeaderFindings(calls, []).map((f) => f.rule_id)).toContain('web.disclosure.powered-by');
    const page: Page = {
      url: new URL(origin),
      response: response('/', { 'x-powered-by': 'Express' }),
      facts: { links: [], forms: [], scripts: [], resources: [], generator: null },
      depth: 0,
    };
    expect(apiHeaderFindings(calls, [page]).map((f) => f.rule_id)).not.toContain('web.disclosure.powered-by');
  });

  it('counts as the session only what the app called once logged in, with credentials', () => {
    const calls = [
      call('/api/me', 'session'),
      call('/api/products', 'anonymous', {}, false),
      call('/api/products', 'session'),
      call('/api/x', 'session', {}, false),
    ];
    expect(sessionOnly(calls).map((c) => c.url.pathname)).toEqual(['/api/me']);
  });
});

describe('tokens in web storage', () => {
  it('reports a JSON Web Token the app keeps in localStorage, without the token', () => {
    const token = jwt({ sub: '2', exp: 1 });
    const calls = [{ ...call('/api/me', 'session'), headers: { authorization: `Bearer ${token}` } }];
    const [finding] = storageFindings(
      origin,
      [{ area: 'local', key: 'auth', value: token, page: origin }],
      calls,
    );
    expect(finding).toMatchObject({ rule_id: 'web.auth.token-in-storage', location: `${origin}/` });
    expect(finding!.evidence).toMatch(
      /localStorage\["auth"\] holds a JSON Web Token \(claims: sub, exp\) that the app sends/,
    );
    expect(finding!.evidence).not.toContain(token.split('.')[1]);
  });

  it('ignores what is not a session token', () => {
    const items = [
      { area: 'local' as const, key: 'theme', value: 'dark', page: origin },
      { area: 'session' as const, key: 'cart', value: '{"items":[1,2]}', page: origin },
      { area: 'local' as const, key: 'blob', value: jwt({ kind: 'feature-flags' }), page: origin },
    ];
    expect(storageFindings(origin, items, [])).toEqual([]);
  });
});

describe('personal data', () => {
  it('finds personal fields and addresses, and masks them', () => {
    expect([...personalFields([{ name: 'x', email: 'a@b.example', nested: { phone: '1' } }])].sort()).toEqual(
      ['email', 'phone'],
    );
    expect([...personalFields({ email: null, password: '' })]).toEqual([]);
    expect(emailsIn('{"a":"alice@acme.test","b":"alice@acme.test"}')).toEqual(['alice@acme.test']);
  });
});

describe('API calls', () => {
  const exchange = (method: string, path: string, body: string | null, type: string) => ({
    request: {
      url: `${origin}${path}`,
      method,
      headers: { 'content-type': type },
      body,
      kind: 'xhr' as const,
      navigation: false,
    },
    response: response(path),
  });
  it('records the body shape and makes endpoints of what the probes can send', () => {
    const json = apiCallOf(
      exchange('POST', '/api/login', '{"email":"a","password":"b"}', 'application/json'),
      'anonymous',
    )!;
    expect(json.bodyShape).toEqual({ type: 'json', fields: ['email', 'password'] });
    // The app's own JSON requests are not all safe to repeat: only those a sent form caused are probed.
    expect(endpointOf(json)).toBeNull();
    expect(endpointOf(json, { json: true })).toMatchObject({
      method: 'POST',
      params: ['email', 'password'],
      json: { email: 'a', password: 'b' },
    });
    const form = apiCallOf(
      exchange('POST', '/api/search', 'q=1&page=2', 'application/x-www-form-urlencoded'),
      'anonymous',
    )!;
    expect(endpointOf(form)).toMatchObject({ method: 'POST', params: ['q', 'page'] });
    const get = apiCallOf(exchange('GET', '/api/items?sort=asc', null, ''), 'anonymous')!;
    expect(endpointOf(get)).toMatchObject({ method: 'GET', params: ['sort'] });
    expect(
      apiCallOf(
        {
          ...exchange('GET', '/x', null, ''),
          request: { ...exchange('GET', '/x', null, '').request, kind: 'script' },
        },
        'anonymous',
      ),
    ).toBeNull();
  });
});
