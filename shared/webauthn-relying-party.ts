// The WebAuthn relying party's rule, one copy for the embedded auth server (server/auth/mfa/) and the
// two-factor-auth edge function (which runs on Deno too): which RP id a host name gives, and from which
// origins a ceremony may count for it. Each caller says which origins it lists.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The relying-party id is the last two labels of the host name. Loopback, IP literals (an IPv6 host has a
 * colon) and single-label hosts cannot be RP ids in browsers, so the embedded stack on one machine uses
 * 'localhost'.
 */
export function relyingPartyId(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const labels = host.split('.');
  if (LOOPBACK_HOSTS.has(host) || IPV4.test(host) || host.includes(':') || labels.length < 2) {
    return 'localhost';
  }
  return labels.slice(-2).join('.');
}

const originOf = (url: string | null | undefined): string | null => {
  try {
    return url ? new URL(url.trim()).origin : null;
  } catch {
    return null;
  }
};

/**
 * Whether a ceremony run at `origin` may count for the relying party `rpId`: any http(s)://localhost:<port>
 * for the 'localhost' RP; else an https origin on a host the RP id covers that is one of `listed` (URLs;
 * empty or invalid ones are passed over). Guards against ceremonies run on look-alike sites; the relying
 * party comes from the server's own configuration, never from the client.
 */
export function originAllowed(
  origin: string,
  rpId: string,
  listed: readonly (string | null | undefined)[],
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // Only a bare origin (no path, credentials) over http(s) can count.
  if (url.origin !== origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (rpId === 'localhost') {
    // Browsers only allow the 'localhost' RP on localhost itself (any port: dev servers, the stack).
    return host === 'localhost';
  }
  // Plain http is acceptable only for loopback development; a public RP needs https.
  const coversHost = host === rpId || host.endsWith(`.${rpId}`);
  return coversHost && url.protocol === 'https:' && listed.some((entry) => originOf(entry) === origin);
}
