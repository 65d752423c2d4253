import { errors } from 'jose';
import type { ApiRole, JwtClaims, KeyRing } from '../keys.ts';

/** Who a channel subscriber is: its Postgres role and JWT claims, as Realtime's assign_access_token keeps them. */
export interface SubscriberAuth {
  role: ApiRole;
  claims: JwtClaims;
  /** The token the claims came from (the apikey when the client sent none). */
  token: string;
  /** Identical claims share one row-level security check per change. */
  claimsKey: string;
}

const API_ROLES: readonly string[] = ['anon', 'authenticated', 'service_role'];

/**
 * Verifies a token for Realtime: signed by the stack, not expired, with `role` and `exp` (Realtime requires
 * both) and an API role, so a subscriber can never make the server check rows as another database role.
 * Returns the subscriber or the reason Realtime would give.
 */
export async function verifySubscriber(
  keys: KeyRing,
  token: string,
): Promise<SubscriberAuth | { reason: string }> {
  let claims: JwtClaims;
  // A token is one run of base64url and dots: anything around it is refused, never trimmed into a valid one.
  if (/\s/.test(token)) {
    return { reason: 'Invalid token: the signature or format is not valid' };
  }
  try {
    claims = await keys.verify(token);
  } catch (e) {
    if (e instanceof errors.JWTExpired) {
      const exp = typeof e.payload.exp === 'number' ? e.payload.exp : Math.floor(Date.now() / 1000);
      return { reason: `Token has expired ${Math.max(0, Math.floor(Date.now() / 1000) - exp)} seconds ago` };
    }
    return { reason: 'Invalid token: the signature or format is not valid' };
  }
  if (typeof claims.exp !== 'number' || typeof claims.role !== 'string') {
    return { reason: 'Fields `role` and `exp` are required in JWT' };
  }
  if (!API_ROLES.includes(claims.role)) {
    return { reason: `Invalid role: ${claims.role}` };
  }
  return { role: claims.role as ApiRole, claims, token, claimsKey: JSON.stringify(claims) };
}

export const isSubscriber = (r: SubscriberAuth | { reason: string }): r is SubscriberAuth => 'claims' in r;

/** Tokens the client sends when it has no session: ignored in favour of the connect-time apikey (§4.4). */
export const isSessionlessToken = (token: unknown, apikey: string): boolean =>
  typeof token !== 'string' || token === '' || token.startsWith('sb_') || token === apikey;
