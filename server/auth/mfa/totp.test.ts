import { describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { totpFor, totpKind } from './totp.ts';
import type { StackContext } from '../../context.ts';
import type { UserRow } from '../users.ts';

const ctx = { config: { siteUrl: 'https://app.vigil.dev' } } as StackContext;
const user = { id: 'u1', email: 'a@b.c' } as UserRow;

describe('totp factor kind', () => {
  it('enrols with a base32 secret, an otpauth URI and a raw SVG QR code', async () => {
    const { secret, response } = await totpKind.enroll(ctx, user, {
      friendlyName: 'phone',
      issuer: undefined,
      body: {},
    });
    const totp = response.totp as { qr_code: string; secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.qr_code.startsWith('<svg')).toBe(true);
    expect(totp.uri).toContain('otpauth://totp/app.vigil.dev:a%40b.c?');
    expect(totp.uri).toContain('algorithm=SHA1&digits=6&period=30');
  });

  it('accepts the current code and refuses others', async () => {
    const { secret } = await totpKind.enroll(ctx, user, { friendlyName: 'x', issuer: 'Vigil', body: {} });
    const factor = {
      id: 'f',
      user_id: 'u1',
      friendly_name: 'x',
      factor_type: 'totp' as const,
      status: 'unverified' as const,
      secret,
      web_authn_credential: null,
    };
    const challenge = { id: 'c', factor_id: 'f', web_authn_session_data: null };
    const good = totpFor(secret ?? '').generate();
    const stale = new TOTP({ secret: secret ?? '' }).generate({ timestamp: Date.now() - 10 * 60_000 });
    expect(await totpKind.verify(ctx, null as never, factor, challenge, { code: good })).toBe(true);
    expect(await totpKind.verify(ctx, null as never, factor, challenge, { code: stale })).toBe(false);
    expect(await totpKind.verify(ctx, null as never, factor, challenge, { code: 'abcdef' })).toBe(false);
    expect(await totpKind.verify(ctx, null as never, factor, challenge, { code: 123456 })).toBe(false);
  });
});
