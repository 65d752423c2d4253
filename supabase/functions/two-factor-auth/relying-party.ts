import { getEnv, requireEnv } from '../_shared/env.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * docs/product.md §9: the relying-party id is the last two labels of the host name; loopback, IP literals and
 * single labels cannot be RP ids, so one machine uses 'localhost'. The same rule as the embedded auth
 * server's server/auth/mfa/webauthn-relying-party.ts (the function runs on Deno too, so it keeps its own).
 */
export function relyingPartyId(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const labels = host.split('.');
  if (LOOPBACK.has(host) || IPV4.test(host) || host.includes(':') || labels.length < 2) {
    return 'localhost';
  }
  return labels.slice(-2).join('.');
}

/** WEBAUTHN_RP_ID when set, else derived from SITE_URL (or the API's URL). */
export function configuredRpId(): string {
  return (
    getEnv('WEBAUTHN_RP_ID') ??
    relyingPartyId(new URL(getEnv('SITE_URL') ?? requireEnv('SUPABASE_URL')).hostname)
  );
}

/**
 * Whether a registration signed at `origin` may count: any localhost origin for the 'localhost' RP, else
 * https origins the RP id covers that are SITE_URL, the API's own, or listed in WEBAUTHN_ALLOWED_ORIGINS.
 * Guards against ceremonies run on look-alike sites. (The desktop app runs its ceremony in the browser on
 * the web origin, so its app://vigil never signs one.)
 */
export function originAllowed(origin: string, rpId: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (rpId === 'localhost') {
    return host === 'localhost';
  }
  const listed = [
    getEnv('SITE_URL'),
    getEnv('SUPABASE_URL'),
    ...(getEnv('WEBAUTHN_ALLOWED_ORIGINS') ?? '').split(','),
  ]
    .map((v) => {
      try {
        return v ? new URL(v.trim()).origin : null;
      } catch {
        return null;
      }
    })
    .filter(Boolean);
  return url.protocol === 'https:' && (host === rpId || host.endsWith(`.${rpId}`)) && listed.includes(origin);
}
