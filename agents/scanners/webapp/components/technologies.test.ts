import { describe, expect, it } from 'vitest';

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
