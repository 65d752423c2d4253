import { decodeJwt } from 'jose';
import type { KeyRing } from '../keys.ts';
import {
  isRoleFailure,
  resolveRequestRole,
  type RequestRole,
  type RoleFailure,
} from '../http/request-role.ts';

const MAX_ENTRIES = 2000;

interface Entry {
  who: RequestRole;
  /** Seconds since the epoch when the earliest of the two tokens expires. */
  expiresAt: number;
}

const expiryOf = (token: string): number => {
  try {
    return decodeJwt(token).exp ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};

/**
 * resolveRequestRole with a cache of successful verifications: an ES256 check costs ~0.15 ms and a
 * request carries two tokens. A hit needs the exact same apikey and Authorization strings (so the same
 * signatures) and is dropped once either token expires; failures are never cached.
 */
export function cachedRoleResolver(keys: KeyRing) {
  const cache = new Map<string, Entry>();
  return async (
    apikey: string | null | undefined,
    authorization: string | null | undefined,
  ): Promise<RequestRole | RoleFailure> => {
    const key = `${apikey ?? ''}\n${authorization ?? ''}`;
    const hit = cache.get(key);
    if (hit && Date.now() / 1000 < hit.expiresAt) {
      return hit.who;
    }
    cache.delete(key);
    const who = await resolveRequestRole(keys, apikey, authorization);
    if (!isRoleFailure(who)) {
      const bearer = who.accessToken ? expiryOf(who.accessToken) : Number.POSITIVE_INFINITY;
      // Bounded: the oldest entry goes first (Map keeps insertion order).
      if (cache.size >= MAX_ENTRIES) {
        cache.delete(cache.keys().next().value!);
      }
      cache.set(key, { who, expiresAt: Math.min(expiryOf(apikey ?? ''), bearer) });
    }
    return who;
  };
}
