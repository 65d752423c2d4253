import { describe, expect, it } from 'vitest';

import { webUrlFromEnv } from './backend-config.ts';
import { isWebauthnRelayUrl } from './webauthn-relay-url.ts';

const LOCAL = 'http://localhost:54321';
const relay = `${LOCAL}/auth/webauthn-relay#mode=register&state=abc&options=e30`;

describe('isWebauthnRelayUrl', () => {
  it('allows the relay page on the configured web origin, its request in the fragment', () => {
    expect(isWebauthnRelayUrl(relay, LOCAL)).toBe(true);
    expect(
      isWebauthnRelayUrl(
        'https://app.vigil.dev/auth/webauthn-relay#mode=authenticate',
        'https://app.vigil.dev',
      ),
    ).toBe(true);
  });

  it.each([
    ['no web origin configured', relay, null],
    ['another page on the web origin', `${LOCAL}/dashboard#x`, LOCAL],
    [
      'the relay with a query (it would reach server logs)',
      `${LOCAL}/auth/webauthn-relay?options=e30#x`,
      LOCAL,
    ],
    ['the relay without a request', `${LOCAL}/auth/webauthn-relay`, LOCAL],
    ['another port', 'http://localhost:9999/auth/webauthn-relay#x', LOCAL],
    ['127.0.0.1 for localhost', 'http://127.0.0.1:54321/auth/webauthn-relay#x', LOCAL],
    ['credentials', 'http://user:pw@localhost:54321/auth/webauthn-relay#x', LOCAL],
    [
      'a look-alike host',
      'https://app.vigil.dev.evil.example/auth/webauthn-relay#x',
      'https://app.vigil.dev',
    ],
    ['plain http on a public host', 'http://app.vigil.dev/auth/webauthn-relay#x', 'http://app.vigil.dev'],
    ['a traversal to the relay', `${LOCAL}/x/../auth/webauthn-relay/#x`, LOCAL],
    ['javascript:', 'javascript:alert(1)//auth/webauthn-relay#x', LOCAL],
    ['garbage', 'not a url', LOCAL],
  ])('refuses %s', (_label, url, webUrl) => {
    expect(isWebauthnRelayUrl(url, webUrl)).toBe(false);
  });
});

describe('webUrlFromEnv', () => {
  it('is VIGIL_WEB_URL when set, https or localhost only', () => {
    expect(webUrlFromEnv({ VIGIL_WEB_URL: 'https://app.vigil.dev/some/path' }, 'https://x.supabase.co')).toBe(
      'https://app.vigil.dev',
    );
    expect(() => webUrlFromEnv({ VIGIL_WEB_URL: 'http://app.vigil.dev' }, LOCAL)).toThrow(/https/);
    expect(() => webUrlFromEnv({ VIGIL_WEB_URL: 'http://127.0.0.1:54321' }, LOCAL)).toThrow(/localhost/);
  });

  it('is the embedded stack on host localhost (its RP id), and unknown for a remote backend', () => {
    expect(webUrlFromEnv({}, 'http://127.0.0.1:54321')).toBe('http://localhost:54321');
    expect(webUrlFromEnv({}, 'http://[::1]:4000')).toBe('http://localhost:4000');
    expect(webUrlFromEnv({}, 'https://abc.supabase.co')).toBeNull();
  });
});
