import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, MAX_DEEP_LINK_LENGTH, parseDeepLink } from './deep-links.ts';

const code = '0f8f1e0c-58f2-4a5e-9d55-2d0d6b7c3a11';
const state = 'Qk9YZ2pQd0xWc1J0b0ZxZ0lhR2ZxS3Z1dE1wV2xYbmE';
// The size of a real answer: Chromium's platform authenticator registering an ES256 credential (no
// attestation), as RegistrationResponseJSON, base64url-encoded: 1,492 characters (tests/e2e/mfa-desktop).
const attestation = 'eyJpZCI6' + 'A'.repeat(1484);

describe('parseDeepLink accepts the known links', () => {
  it('routes an e-mail confirmation link with its code', () => {
    expect(parseDeepLink(`vigil://auth/callback?code=${code}`)).toEqual({
      ok: true,
      message: { route: '/auth/callback', params: { code } },
    });
  });
  it('routes a password-reset link, and an auth error link without a code', () => {
    expect(parseDeepLink(`vigil://auth/reset-password?code=${code}`)).toMatchObject({ ok: true });
    const err = parseDeepLink(
      'vigil://auth/callback?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );
    expect(err).toMatchObject({
      ok: true,
      message: { params: { error_description: 'Email link is invalid or has expired' } },
    });
  });
  it('routes notification links to dashboard pages', () => {
    expect(parseDeepLink(`vigil://dashboard/alerts?event=${code}`)).toMatchObject({
      ok: true,
      message: { route: '/dashboard/alerts' },
    });
    expect(parseDeepLink('vigil://dashboard/')).toMatchObject({ ok: true, message: { route: '/dashboard' } });
  });
  it('finds the link in a second instance argv', () => {
    expect(deepLinkFromArgv(['/opt/Vigil/vigil', '--flag', `vigil://auth/callback?code=${code}`])).toBe(
      `vigil://auth/callback?code=${code}`,
    );
    expect(deepLinkFromArgv(['/opt/Vigil/vigil'])).toBeUndefined();
  });
});

describe('the biometric hand-off answer (auth/webauthn)', () => {
  it('carries the state and the credential response, or the state and an error', () => {
    const link = `vigil://auth/webauthn?state=${state}&response=${attestation}`;
    expect(link.length).toBeLessThan(MAX_DEEP_LINK_LENGTH);
    expect(parseDeepLink(link)).toEqual({
      ok: true,
      message: { route: '/auth/webauthn', params: { state, response: attestation } },
    });
    expect(parseDeepLink(`vigil://auth/webauthn?state=${state}&error=cancelled`)).toMatchObject({
      ok: true,
      message: { params: { state, error: 'cancelled' } },
    });
  });

  const hostile: [string, string][] = [
    ['an oversized response', `vigil://auth/webauthn?state=${state}&response=${'A'.repeat(3900)}`],
    [
      'an oversized link',
      `vigil://auth/webauthn?state=${state}&response=${'A'.repeat(MAX_DEEP_LINK_LENGTH)}`,
    ],
    ['a short state', `vigil://auth/webauthn?state=abc&response=${attestation}`],
    ['an over-long state', `vigil://auth/webauthn?state=${'a'.repeat(65)}&response=${attestation}`],
    [
      'a state with other characters',
      `vigil://auth/webauthn?state=${state.slice(0, 30)}%2F%2B%3D&error=cancelled`,
    ],
    ['no state', `vigil://auth/webauthn?response=${attestation}`],
    ['standard base64 in the response', `vigil://auth/webauthn?state=${state}&response=ab%2Bcd%2Fef%3D%3D`],
    ['a script in the response', `vigil://auth/webauthn?state=${state}&response=%3Cscript%3E`],
    [
      'an extra parameter',
      `vigil://auth/webauthn?state=${state}&response=${attestation}&next=https://evil.example`,
    ],
    [
      'a response and an error',
      `vigil://auth/webauthn?state=${state}&response=${attestation}&error=cancelled`,
    ],
    ['neither response nor error', `vigil://auth/webauthn?state=${state}`],
    ['an unknown error code', `vigil://auth/webauthn?state=${state}&error=access_denied`],
    ['a repeated state', `vigil://auth/webauthn?state=${state}&state=${state}&error=cancelled`],
    ['a sub-path', `vigil://auth/webauthn/extra?state=${state}&error=cancelled`],
  ];
  it.each(hostile)('refuses %s', (_label, link) => {
    expect(parseDeepLink(link)).toMatchObject({ ok: false });
  });
});

describe('parseDeepLink refuses hostile links', () => {
  const hostile: [string, unknown][] = [
    ['another scheme', `https://evil.example/auth/callback?code=${code}`],
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['a javascript: link dressed in the scheme', 'vigil://auth/callback?code=javascript:alert(1)'],
    ['an unknown path', 'vigil://settings/export'],
    ['encoded traversal', `vigil://dashboard/%2e%2e/auth/callback?code=${code}`],
    ['plain traversal', `vigil://dashboard/alerts/../../auth/callback?code=${code}`],
    ['backslashes', 'vigil://dashboard\\alerts'],
    ['an extra parameter', `vigil://auth/callback?code=${code}&redirect=https://evil.example`],
    ['a repeated parameter', `vigil://auth/callback?code=${code}&code=${code}`],
    ['a malformed code', 'vigil://auth/callback?code=<script>'],
    ['no code and no error', 'vigil://auth/callback'],
    ['credentials', `vigil://user:pw@auth/callback?code=${code}`],
    ['oversized input', `vigil://auth/callback?code=${code}&error_description=${'x'.repeat(5000)}`],
    ['a non-uuid id', 'vigil://dashboard/alerts?event=1;drop'],
    ['a non-string', { href: 'vigil://dashboard' }],
    ['garbage', 'vigil:::'],
  ];
  it.each(hostile)('refuses %s', (_label, link) => {
    expect(parseDeepLink(link)).toMatchObject({ ok: false });
  });
});
