import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AuthErrorCode, AuthErrorStatus } from './error-codes.ts';

/** The API version GoTrue echoes so that auth-js reads `code` from error bodies. */
export const API_VERSION = '2024-01-01';

/** A GoTrue error: HTTP status, machine code (from the catalogue in error-codes.ts) and human message. */
export class AuthError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: AuthErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** An error of the catalogue: `status` must be one GoTrue answers `code` with. */
export const authError = <C extends AuthErrorCode>(
  status: AuthErrorStatus<C> & ContentfulStatusCode,
  code: C,
  message: string,
  extra?: Record<string, unknown>,
) => new AuthError(status, code, message, extra);

/** Both the 2024 (`code`, `message`) and legacy (`error_code`, `msg`) fields, so any client version reads it. */
export function errorResponse(c: Context, e: AuthError): Response {
  c.header('X-Supabase-Api-Version', API_VERSION);
  c.header('x-sb-error-code', e.code);
  return c.json(
    { code: e.code, error_code: e.code, msg: e.message, message: e.message, ...e.extra },
    e.status,
  );
}

/** Anything that is not an AuthError is a real fault: 500 unexpected_failure, logged, details hidden. */
export function handleError(e: unknown, c: Context): Response {
  if (e instanceof AuthError) {
    return errorResponse(c, e);
  }
  console.error('auth: unexpected failure', e);
  return errorResponse(
    c,
    authError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
  );
}

export const Errors = {
  invalidCredentials: () => authError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => authError(400, 'email_not_confirmed', 'Email not confirmed'),
  noAuthorization: () => authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string) =>
    authError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  sessionNotFound: (status: 400 | 403 = 403) =>
    authError(status, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => authError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  otpExpired: () => authError(403, 'otp_expired', 'Token has expired or is invalid'),
  validation: (message: string) => authError(400, 'validation_failed', message),
  weakPassword: (min: number) =>
    authError(422, 'weak_password', `Password should be at least ${min} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  rateLimited: () => authError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimited: (seconds: number) =>
    authError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  notAdmin: () => authError(403, 'not_admin', 'User not allowed'),
  /** GoTrue's answer to a password or e-mail change from an aal1 session of a user with a verified factor. */
  aal2RequiredForCredentials: () =>
    authError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    ),
};
