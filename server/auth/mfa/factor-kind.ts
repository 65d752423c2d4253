import type { Queryable } from '../../db/database.ts';
import type { StackContext } from '../../context.ts';
import type { UserRow } from '../users.ts';

/** The row of auth.mfa_factors a factor kind works with. */
export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'webauthn' | 'phone';
  status: 'unverified' | 'verified';
  secret: string | null;
  web_authn_credential: unknown;
}

export interface EnrollInput {
  friendlyName: string;
  issuer: string | undefined;
  /** The raw request body, for kind-specific fields. */
  body: Record<string, unknown>;
}

export interface ChallengeRow {
  id: string;
  factor_id: string;
  web_authn_session_data: unknown;
}

/**
 * One kind of second factor. The routes own rows, limits, AAL and sessions; a kind only creates its
 * secret, describes a challenge and checks a response, so WebAuthn (or phone) plugs in without
 * touching them.
 */
export interface FactorKind {
  type: FactorRow['factor_type'];
  /** The amr method recorded when a challenge of this kind is verified (GoTrue: totp, mfa/webauthn). */
  amr: 'totp' | 'mfa/webauthn';
  /** How long a challenge of this kind may be answered; the stack's MFA challenge expiry when absent. */
  challengeExpirySeconds?(ctx: StackContext): number;
  /** Column values for the new factor and the response fields the client expects from enrolment. */
  enroll(
    ctx: StackContext,
    user: UserRow,
    input: EnrollInput,
  ): Promise<{ secret: string | null; response: Record<string, unknown> }>;
  /** Extra fields for the challenge response and the session data to keep with the challenge. */
  challenge(
    ctx: StackContext,
    factor: FactorRow,
    body: Record<string, unknown>,
  ): Promise<{ response: Record<string, unknown>; sessionData: unknown }>;
  /** Whether the verify request proves possession; may update the factor (e.g. store a credential). */
  verify(
    ctx: StackContext,
    tx: Queryable,
    factor: FactorRow,
    challenge: ChallengeRow,
    body: Record<string, unknown>,
  ): Promise<boolean>;
}
