import { getEnv, requireEnv } from '../_shared/env.ts';
import {
  originAllowed as listedOriginAllowed,
  relyingPartyId,
} from '../../../shared/webauthn-relying-party.ts';

/** WEBAUTHN_RP_ID when set, else derived from SITE_URL (or the API's URL). */
export function configuredRpId(): string {
  return (
    getEnv('WEBAUTHN_RP_ID') ??
    relyingPartyId(new URL(getEnv('SITE_URL') ?? requireEnv('SUPABASE_URL')).hostname)
  );
}

/**
 * Whether a registration signed at `origin` may count (shared/webauthn-relying-party.ts): the listed
 * origins are SITE_URL, the API's own and those in WEBAUTHN_ALLOWED_ORIGINS. (The desktop app runs its
 * ceremony in the browser on the web origin, so its app://vigil never signs one.)
 */
export function originAllowed(origin: string, rpId: string): boolean {
  return listedOriginAllowed(origin, rpId, [
    getEnv('SITE_URL'),
    getEnv('SUPABASE_URL'),
    ...(getEnv('WEBAUTHN_ALLOWED_ORIGINS') ?? '').split(','),
  ]);
}
