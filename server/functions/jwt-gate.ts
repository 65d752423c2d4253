import type { KeyRing } from '../keys.ts';
import { parseAuthorization } from '../http/bearer.ts';
import { isRoleFailure, resolveRequestRole } from '../http/request-role.ts';

const API_ROLES: readonly string[] = ['anon', 'authenticated', 'service_role'];

/**
 * The hosted gateway's verify_jwt check: a function runs only for a request that carries one of the
 * project's keys or a valid JWT it signed. Returns null when the request may pass, else the reason.
 */
export async function checkFunctionJwt(keys: KeyRing, headers: Headers): Promise<string | null> {
  const apikey = headers.get('apikey');
  const authorization = headers.get('authorization');
  if (!apikey && !authorization) {
    return 'Missing authorization header';
  }
  if (apikey) {
    const role = await resolveRequestRole(keys, apikey, authorization);
    if (!isRoleFailure(role)) {
      return null;
    }
    return role.kind === 'invalid_api_key'
      ? 'Invalid API key'
      : role.kind === 'expired_jwt'
        ? 'JWT expired'
        : role.kind === 'malformed_authorization'
          ? 'Invalid authorization header'
          : 'Invalid JWT';
  }
  // Only `Authorization: Bearer <jwt>` (curl as in Supabase's docs): that JWT must verify.
  const header = parseAuthorization(authorization);
  if (header.kind !== 'bearer') {
    return 'Invalid authorization header';
  }
  try {
    const claims = await keys.verify(header.token);
    return API_ROLES.includes(claims.role) ? null : 'Invalid JWT';
  } catch {
    return 'Invalid JWT';
  }
}
