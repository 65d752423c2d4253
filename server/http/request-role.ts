import { errors } from 'jose';
import type { ApiRole, JwtClaims, KeyRing } from '../keys.ts';
import { parseAuthorization } from './bearer.ts';

/** Who a request acts as: the Postgres role to SET and the claims to expose as request.jwt.claims. */
export interface RequestRole {
  role: ApiRole;
  claims: JwtClaims;
  /** The verified user access token, when the request carried one. */
  accessToken: string | null;
}

export type RoleFailure =
  | { kind: 'no_api_key' }
  | { kind: 'invalid_api_key' }
  | { kind: 'invalid_jwt'; message: string }
  | { kind: 'expired_jwt' }
  /** An Authorization header that is not exactly `Bearer <token>`. */
  | { kind: 'malformed_authorization' };

const API_ROLES: readonly string[] = ['anon', 'authenticated', 'service_role'];

async function verifyKey(keys: KeyRing, token: string): Promise<JwtClaims | 'expired' | 'invalid'> {
  try {
    return await keys.verify(token);
  } catch (e) {
    return e instanceof errors.JWTExpired ? 'expired' : 'invalid';
  }
}

/**
 * Resolves a request's role the way Supabase's gateway and PostgREST do (docs/reference/common.md §3, §4):
 * the apikey must be one of the stack's keys; a Bearer token equal to the apikey (or an sb_ key) means
 * "no session"; any other Bearer token must be a valid JWT signed by the stack and names the role.
 */
export async function resolveRequestRole(
  keys: KeyRing,
  apikey: string | null | undefined,
  authorization: string | null | undefined,
): Promise<RequestRole | RoleFailure> {
  if (!apikey) {
    return { kind: 'no_api_key' };
  }
  const keyClaims = await verifyKey(keys, apikey);
  if (
    typeof keyClaims === 'string' ||
    !API_ROLES.includes(keyClaims.role) ||
    keyClaims.role === 'authenticated'
  ) {
    return { kind: 'invalid_api_key' };
  }
  const header = parseAuthorization(authorization);
  if (header.kind === 'malformed') {
    return { kind: 'malformed_authorization' };
  }
  const bearer = header.kind === 'bearer' ? header.token : null;
  if (!bearer || bearer === apikey || bearer.startsWith('sb_')) {
    return { role: keyClaims.role as ApiRole, claims: keyClaims, accessToken: null };
  }
  const claims = await verifyKey(keys, bearer);
  if (claims === 'expired') {
    return { kind: 'expired_jwt' };
  }
  if (claims === 'invalid') {
    return { kind: 'invalid_jwt', message: 'invalid JWT: unable to parse or verify signature' };
  }
  if (!API_ROLES.includes(claims.role)) {
    return { kind: 'invalid_jwt', message: `role "${claims.role}" does not exist` };
  }
  return { role: claims.role as ApiRole, claims, accessToken: bearer };
}

export const isRoleFailure = (r: RequestRole | RoleFailure): r is RoleFailure => 'kind' in r;
