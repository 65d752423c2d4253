import { bufferToBase64URLString } from '@simplewebauthn/browser';
import { describe, expect, it } from 'vitest';

import { parseDeepLink } from '../../../../../shared/deep-links.ts';
import {
  decodeRelayFragment,
  decodeRelayResponse,
  newRelayState,
  relayUrl,
  returnErrorLink,
  returnLink,
  rpIdAllowedOn,
  type RelayRequest,
} from './relay-codec.ts';

const state = newRelayState();
const challenge = 'x7sVhQk3lG0mH6b1QfC2pYwq8aZJtN4u5eRkLdSoIvM';
const register: RelayRequest = {
  mode: 'register',
  state,
  options: {
    rp: { id: 'localhost', name: 'Vigil' },
    user: { id: 'dXNlci0x', name: 'ada@example.com', displayName: 'Biometric' },
    challenge,
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    timeout: 60_000,
    excludeCredentials: [],
    authenticatorSelection: { authenticatorAttachment: 'platform', userVerification: 'preferred' },
    attestation: 'none',
  },
};
const authenticate: RelayRequest = {
  mode: 'authenticate',
  state,
  options: {
    rpId: 'vigil.dev',
    challenge,
    timeout: 60_000,
    userVerification: 'preferred',
    allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key', transports: ['internal'] }],
  },
};
const fragmentOf = (url: string) => url.slice(url.indexOf('#'));
const b64 = (value: unknown) =>
  bufferToBase64URLString(new TextEncoder().encode(JSON.stringify(value)).buffer);

describe('relay request (URL fragment)', () => {
  it('round-trips a registration on localhost and an assertion on a subdomain of the RP', () => {
    const url = relayUrl('http://localhost:54321/ignored', register);
    expect(url.startsWith('http://localhost:54321/auth/webauthn-relay#mode=register&state=')).toBe(true);
    expect(url).not.toContain('?');
    expect(decodeRelayFragment(fragmentOf(url), 'localhost')).toEqual({ ok: true, request: register });
    const other = relayUrl('https://app.vigil.dev', authenticate);
    expect(decodeRelayFragment(fragmentOf(other), 'app.vigil.dev')).toEqual({
      ok: true,
      request: authenticate,
    });
  });

  it('makes a fresh 43-character base64url state each time', () => {
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newRelayState()).not.toBe(state);
  });

  it('refuses a page on a host the RP id does not cover', () => {
    const local = fragmentOf(relayUrl('http://localhost:1', register));
    expect(decodeRelayFragment(local, '127.0.0.1')).toMatchObject({ ok: false });
    expect(decodeRelayFragment(local, 'evil.example')).toMatchObject({ ok: false });
    const hosted = fragmentOf(relayUrl('https://app.vigil.dev', authenticate));
    expect(decodeRelayFragment(hosted, 'vigil.dev.evil.example')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('vigil.dev') as string,
    });
    expect(rpIdAllowedOn('dev', 'vigil.dev')).toBe(false);
    expect(rpIdAllowedOn('0.0.1', '127.0.0.1')).toBe(false);
  });

  const options = b64(register.options);
  it.each([
    ['an empty fragment', ''],
    ['an unknown mode', `#mode=delete&state=${state}&options=${options}`],
    ['a short state', `#mode=register&state=abc&options=${options}`],
    ['options that are not base64url JSON', `#mode=register&state=${state}&options=%7B%7D`],
    ['options of the other ceremony', `#mode=authenticate&state=${state}&options=${options}`],
    ['an extra parameter', `#mode=register&state=${state}&options=${options}&next=x`],
    ['a repeated parameter', `#mode=register&state=${state}&state=${state}&options=${options}`],
    [
      'a non-platform value',
      `#mode=register&state=${state}&options=${b64({ ...register.options, challenge: 'a b' })}`,
    ],
    ['an oversized fragment', `#mode=register&state=${state}&options=${'A'.repeat(20_000)}`],
  ])('refuses %s', (_label, hash) => {
    expect(decodeRelayFragment(hash, 'localhost')).toMatchObject({ ok: false });
  });
});

describe('relay answer (vigil://auth/webauthn)', () => {
  const assertion = {
    id: 'Y3JlZC0x',
    rawId: 'Y3JlZC0x',
    type: 'public-key' as const,
    clientExtensionResults: {},
    response: { clientDataJSON: 'eyJ9', authenticatorData: 'AAAA', signature: 'MEUC' },
  };

  it('passes the deep-link parser and decodes to the response', () => {
    const link = returnLink(state, assertion);
    const parsed = parseDeepLink(link);
    expect(parsed).toMatchObject({ ok: true, message: { route: '/auth/webauthn', params: { state } } });
    const response = parsed.ok ? (parsed.message.params.response ?? '') : '';
    expect(decodeRelayResponse('authenticate', response)).toEqual(assertion);
    expect(parseDeepLink(returnErrorLink(state, 'cancelled'))).toMatchObject({ ok: true });
  });

  it('refuses a response for the other ceremony, or one that is not JSON', () => {
    const encoded = b64(assertion);
    expect(() => decodeRelayResponse('register', encoded)).toThrow(/different kind/);
    expect(() => decodeRelayResponse('authenticate', 'bm90IGpzb24')).toThrow(/unreadable/);
    expect(() =>
      decodeRelayResponse(
        'authenticate',
        b64({ ...assertion, response: { ...assertion.response, signature: '<x>' } }),
      ),
    ).toThrow();
  });
});
