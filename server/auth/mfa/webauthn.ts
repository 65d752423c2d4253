import { authError } from '../errors.ts';
import type { FactorKind } from './factor-kind.ts';

/**
 * WebAuthn factors: enrolment rows exist so the client flow can start, but credential creation and
 * assertion checks are NOT implemented yet (the seam for @simplewebauthn/server is challenge/verify here).
 * Until then challenges are refused with GoTrue's "not enabled" code rather than pretending to verify.
 */
export const webauthnKind: FactorKind = {
  type: 'webauthn',
  amr: 'webauthn',
  enroll() {
    return Promise.resolve({ secret: null, response: {} });
  },
  challenge() {
    return Promise.reject(
      authError(
        422,
        'mfa_webauthn_verify_not_enabled',
        'WebAuthn MFA verification is not enabled on this server yet',
      ),
    );
  },
  verify() {
    return Promise.reject(
      authError(
        422,
        'mfa_webauthn_verify_not_enabled',
        'WebAuthn MFA verification is not enabled on this server yet',
      ),
    );
  },
};
