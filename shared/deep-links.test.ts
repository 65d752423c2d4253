import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from './deep-links.ts';

const code = '0f8f1e0c-58f2-4a5e-9d55-2d0d6b7c3a11';

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
