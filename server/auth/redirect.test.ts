import { describe, expect, it } from 'vitest';
import { globToRegExp, isRedirectAllowed, resolveRedirect } from './redirect.ts';

const config = {
  siteUrl: 'https://app.vigil.dev',
  redirectUrls: [
    'vigil://**',
    'http://localhost:*/**',
    'http://127.0.0.1:*/**',
    'https://*.preview.vigil.dev/auth/*',
  ],
};

describe('redirect allow list', () => {
  it('accepts the site host, desktop deep links and loopback', () => {
    expect(isRedirectAllowed(config, 'https://app.vigil.dev/auth/callback?x=1')).toBe(true);
    expect(isRedirectAllowed(config, 'vigil://auth/callback')).toBe(true);
    expect(isRedirectAllowed(config, 'http://localhost:3000/cb')).toBe(true);
    expect(isRedirectAllowed(config, 'http://127.0.0.1:5173/auth/reset-password')).toBe(true);
  });

  it('keeps `*` within one label or segment', () => {
    expect(isRedirectAllowed(config, 'https://pr-1.preview.vigil.dev/auth/cb')).toBe(true);
    expect(isRedirectAllowed(config, 'https://evil.com.preview.vigil.dev/auth/cb')).toBe(false);
    expect(isRedirectAllowed(config, 'https://pr-1.preview.vigil.dev/auth/cb/deeper')).toBe(false);
    expect(globToRegExp('http://a.*/x').test('http://a.b.c/x')).toBe(false);
  });

  it('refuses foreign hosts and script URLs, falling back to the site', () => {
    expect(isRedirectAllowed(config, 'https://evil.example/cb')).toBe(false);
    expect(isRedirectAllowed(config, 'http://localhost.evil.example:80/cb')).toBe(false);
    expect(isRedirectAllowed(config, 'javascript:alert(1)//app.vigil.dev')).toBe(false);
    expect(resolveRedirect(config, 'https://evil.example/cb')).toBe('https://app.vigil.dev');
    expect(resolveRedirect(config, undefined)).toBe('https://app.vigil.dev');
  });
});
