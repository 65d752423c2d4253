import { describe, expect, it } from 'vitest';

import type { Page } from '../crawl.ts';
import { parseHtml } from '../html.ts';
import { technologyNote } from './technology-note.ts';
import { identify } from './technologies.ts';

describe('technology fingerprints', () => {
  it('names servers and frameworks with the versions their headers disclose', () => {
    expect(identify({ server: 'nginx/1.22.1' })).toEqual([
      { name: 'Nginx', version: '1.22.1', source: 'server header' },
    ]);
    expect(identify({ server: 'lighttpd/1.4.69' })).toEqual([
      { name: 'lighttpd', version: '1.4.69', source: 'server header' },
    ]);
    expect(identify({ server: 'Apache/2.4.62 (Debian)', 'x-powered-by': 'PHP/8.2.7' })).toEqual(
      expect.arrayContaining([
        { name: 'Apache HTTP Server', version: '2.4.62', source: 'server header' },
        { name: 'PHP', version: '8.2.7', source: 'x-powered-by header' },
      ]),
    );
  });

  it('reads cookies and the meta generator', () => {
    expect(identify({ 'set-cookie': ['PHPSESSID=abc; path=/; HttpOnly'] })).toEqual([
      { name: 'PHP', version: null, source: 'cookie phpsessid' },
    ]);
    expect(identify({}, 'WordPress 6.4.2')).toEqual([
      { name: 'WordPress', version: '6.4.2', source: 'meta generator' },
    ]);
  });

  it('names nothing from headers it has no fingerprint for', () => {
    expect(identify({ 'content-type': 'text/html', 'x-request-id': 'nginx/1.0' })).toEqual([]);
  });
});

describe('technology notes in disclosure evidence', () => {
  const page = (headers: Record<string, string>, html = ''): Page => {
    const url = new URL('http://site.example/');
    return {
      url,
      response: { url: url.href, status: 200, headers, body: html, redirects: [] },
      facts: parseHtml(html, url),
      depth: 0,
    };
  };

  it("names the disclosed product, and on the server's finding what else the response shows", () => {
    const p = page(
      { server: 'Apache/2.4.62 (Debian)', 'x-powered-by': 'PHP/7.2.1' },
      '<meta name="generator" content="WordPress 4.9.8">',
    );
    expect(technologyNote(p, 'x-powered-by header')).toBe(', identified as PHP 7.2.1');
    expect(technologyNote(p, 'meta generator')).toBe(', identified as WordPress 4.9.8');
    expect(technologyNote(p, 'server header', true)).toBe(
      ', identified as Apache HTTP Server 2.4.62, Debian; the same response identifies PHP 7.2.1 (x-powered-by header), WordPress 4.9.8 (meta generator)',
    );
  });

  it('adds nothing for a product it cannot name', () => {
    expect(technologyNote(page({ server: 'acme-edge/4.2' }), 'server header', true)).toBe('');
  });
});
