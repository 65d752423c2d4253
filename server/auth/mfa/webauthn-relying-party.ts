import type { StackConfig } from '../../config.ts';
import { originAllowed, relyingPartyId } from '../../../shared/webauthn-relying-party.ts';

export interface RelyingParty {
  /** The WebAuthn relying-party id every credential is scoped to. */
  id: string;
  name: string;
  /** Whether a ceremony run at `origin` may count for this relying party. */
  allowsOrigin(origin: string): boolean;
}

/**
 * The relying party comes from the stack's own configuration (its site URL), never from the client:
 * auth-js sends rpId/rpOrigins from `location`, and trusting them would let any page claim our factors.
 * Allowed origins: the site URL and the API's own origin over https on hosts the RP id covers, any
 * http(s)://localhost:<port> when the RP is 'localhost' (shared/webauthn-relying-party.ts). The desktop
 * app's own pages (app://vigil) cannot run WebAuthn: it hands the ceremony to the system browser on the web
 * origin (/auth/webauthn-relay).
 */
export function relyingParty(config: Pick<StackConfig, 'siteUrl' | 'publicUrl'>): RelyingParty {
  const id = relyingPartyId(new URL(config.siteUrl).hostname);
  const listed = [config.siteUrl, config.publicUrl];
  return {
    id,
    name: 'Vigil',
    allowsOrigin: (origin) => originAllowed(origin, id, listed),
  };
}
