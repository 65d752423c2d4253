// Where header findings are filed: the URL the crawl asked for, so that a landing URL that changes on
// every visit does not change a finding's identity.
import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import type { Page } from './crawl.ts';
import { headerFindings } from './header-checks.ts';
import { parseHtml } from './html.ts';

function page(url: string, extra: Partial<HttpResponse> = {}, requested?: string): Page {
  const body = '<html><head><title>Home</title></head><body></body></html>';
  const response: HttpResponse = {
    url,
    status: 200,
    headers: { 'content-type': 'text/html', 'set-cookie': ['sid=1; Path=/'] },
    body,
    redirects: requested ? [requested] : [],
    ...extra,
  };
  return {
    url: new URL(url),
    response,
    facts: parseHtml(body, new URL(url)),
    depth: 0,
    ...(requested ? { requested: new URL(requested) } : {}),
  };
}

const placeOf = (pages: Page[], rule: string) => headerFindings(pages).find((f) => f.rule_id === rule);

describe('header findings', () => {
  it('are filed at the URL the crawl asked for, whatever random URL the page landed on', () => {
    const first = placeOf(
      [page('http://shop.test/r/8f3a9c01', {}, 'http://shop.test/')],
      'web.header.csp-missing',
    );
    const second = placeOf(
      [page('http://shop.test/r/77e2b4aa', {}, 'http://shop.test/')],
      'web.header.csp-missing',
    );
    expect(first?.location).toBe('http://shop.test/');
    expect(second?.location).toBe(first?.location);
    expect(first?.evidence).toContain('answered at http://shop.test/r/8f3a9c01 after a redirect');
    const cookie = placeOf(
      [page('http://shop.test/r/8f3a9c01', {}, 'http://shop.test/')],
      'web.cookie.httponly-missing',
    );
    expect(cookie?.location).toBe('http://shop.test/');
  });

  it('stay at the page itself when no redirect moved it', () => {
    expect(placeOf([page('http://shop.test/about')], 'web.clickjacking')?.location).toBe(
      'http://shop.test/about',
    );
  });

  it('say when the answer they judge was malformed or cut short', () => {
    const finding = placeOf(
      [
        page('http://shop.test/', {
          malformed: ['lines end in a bare LF instead of CRLF'],
          cutShort: 'deadline',
        }),
      ],
      'web.header.csp-missing',
    );
    expect(finding?.evidence).toContain('malformed answer: lines end in a bare LF instead of CRLF');
    expect(finding?.evidence).toContain('body cut short (deadline)');
  });

  it('judge the cookies a followed redirect set, named with the hop that set them', () => {
    const landed = page(
      'https://shop.test/login',
      {
        headers: { 'content-type': 'text/html' },
        earlierCookies: [{ url: 'https://shop.test/', lines: ['connect.sid=s%3Aabc; Path=/; HttpOnly'] }],
      },
      'https://shop.test/',
    );
    const sameSite = placeOf([landed], 'web.cookie.samesite-missing');
    expect(sameSite?.evidence).toContain('connect.sid (set by https://shop.test/)');
    expect(placeOf([landed], 'web.cookie.secure-missing')?.evidence).toContain('connect.sid');
    expect(placeOf([landed], 'web.cookie.httponly-missing')).toBeUndefined();
  });
});
