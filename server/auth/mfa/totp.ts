import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import { authError } from '../errors.ts';
import type { FactorKind } from './factor-kind.ts';

/** GoTrue's TOTP parameters: SHA-1, six digits, 30-second steps. */
export const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

const VerifyTotp = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

export function totpFor(secretBase32: string, issuer = 'Vigil', label = 'user'): TOTP {
  return new TOTP({ ...TOTP_PARAMS, issuer, label, secret: Secret.fromBase32(secretBase32) });
}

export const totpKind: FactorKind = {
  type: 'totp',
  amr: 'totp',
  async enroll(ctx, user, input) {
    const issuer = input.issuer || new URL(ctx.config.siteUrl).hostname;
    const secret = new Secret({ size: 20 });
    const totp = new TOTP({ ...TOTP_PARAMS, issuer, label: user.email ?? user.id, secret });
    const uri = totp.toString();
    // Raw SVG: auth-js turns it into a data: URL itself.
    // The QR encoder loads with the first enrolment, not with the stack.
    const { default: QRCode } = await import('qrcode');
    const qr = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret: secret.base32, response: { totp: { qr_code: qr, secret: secret.base32, uri } } };
  },
  challenge() {
    return Promise.resolve({ response: {}, sessionData: null });
  },
  verify(_ctx, _tx, factor, _challenge, body) {
    const parsed = VerifyTotp.safeParse(body);
    if (!parsed.success) {
      return Promise.resolve(false);
    }
    if (!factor.secret) {
      throw authError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
    }
    // One step either side tolerates clock drift between the phone and this machine.
    return Promise.resolve(totpFor(factor.secret).validate({ token: parsed.data.code, window: 1 }) !== null);
  },
};
