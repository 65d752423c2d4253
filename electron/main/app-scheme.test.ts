import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, resolveAppPath } from './app-scheme.ts';

const dist = path.resolve('/opt/vigil/web');

describe('resolveAppPath', () => {
  it('serves assets from the build and routes everything else to index.html', () => {
    expect(resolveAppPath('app://vigil/assets/index-abc.js', dist)).toEqual({
      file: path.join(dist, 'assets/index-abc.js'),
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppPath('app://vigil/dashboard/alerts?x=1', dist)).toMatchObject({
      file: path.join(dist, 'index.html'),
    });
    expect(resolveAppPath('app://vigil/', dist)).toMatchObject({ file: path.join(dist, 'index.html') });
  });

  it.each([
    ['dot-dot traversal', 'app://vigil/../../etc/passwd.txt'],
    ['encoded traversal', 'app://vigil/%2e%2e/%2e%2e/etc/passwd.txt'],
    ['double-encoded', 'app://vigil/%252e%252e/secret.js'],
    ['a backslash', 'app://vigil/..%5C..%5Csecret.js'],
    ['a NUL byte', 'app://vigil/index.html%00.js'],
    ['broken escapes', 'app://vigil/%E0%A4%A.js'],
    ['another host', 'app://evil/index.js'],
    ['another scheme', 'file:///etc/passwd'],
  ])('refuses %s', (_label, url) => {
    const r = resolveAppPath(url, dist);
    if ('file' in r) {
      // Whatever is resolved must stay inside the build folder.
      expect(r.file.startsWith(dist + path.sep)).toBe(true);
    } else {
      expect([400, 404]).toContain(r.error);
    }
  });
});

describe('contentSecurityPolicy', () => {
  it('allows scripts only from the app and data only from the backend', () => {
    const csp = contentSecurityPolicy('https://abc.supabase.co');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self' https://abc.supabase.co wss://abc.supabase.co");
    expect(csp).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy('http://127.0.0.1:54321')).toContain('ws://127.0.0.1:54321');
  });
});
