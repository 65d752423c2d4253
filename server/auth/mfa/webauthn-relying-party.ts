import { isIP } from 'node:net';
import type { StackConfig } from '../../config.ts';

export interface RelyingParty {
  /** The WebAuthn relying-party id every credential is scoped to. */
  id: string;
  name: string;
  /** Whether a ceremony run at `origin` may count for this relying party. */
  allowsOrigin(origin: string): boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * docs/product.md §9: the relying-party id is the last two labels of the host name. Loopback, IP literals and
 * single-label hosts cannot be RP ids in browsers, so the embedded stack on one machine uses 'localhost'.
 */
export function relyingPartyId(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const labels = host.split('.');
  if (LOOPBACK_HOSTS.has(host) || isIP(host.replace(/^\[|\]$/g, '')) !== 0 || labels.length < 2) {
    return 'localhost';
  }
  return labels.slice(-2).join('.');
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The relying party comes from the stack's own configuration (its site URL), never from the client:
 * auth-js sends rpId/rpOrigins from `location`, and trusting them would let any page claim our factors.
 * Allowed origins: the site URL and the API's own origin over https on hosts the RP id covers, any
 * http(s)://localhost:<port> when the RP is 'localhost'. The desktop app's own pages (app://vigil) cannot run
 * WebAuthn: it hands the ceremony to the system browser on the web origin (/auth/webauthn-relay).
 */
export function relyingParty(config: Pick<StackConfig, 'siteUrl' | 'publicUrl'>): RelyingParty {
  const id = relyingPartyId(new URL(config.siteUrl).hostname);
  const listed = new Set([originOf(config.siteUrl), originOf(config.publicUrl)]);
  return {
    id,
    name: 'Vigil',
    allowsOrigin(origin) {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      // Only a bare origin (no path, credentials) on a host the RP id covers can count.
      if (url.origin !== origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
        return false;
      }
      const host = url.hostname.toLowerCase();
      const coversHost = host === id || host.endsWith(`.${id}`);
      if (id === 'localhost') {
        // Browsers only allow the 'localhost' RP on localhost itself (any port: dev servers, the stack).
        return host === 'localhost';
      }
      // Plain http is acceptable only for loopback development; a public RP needs https.
      return coversHost && url.protocol === 'https:' && listed.has(origin);
    },
  };
}
