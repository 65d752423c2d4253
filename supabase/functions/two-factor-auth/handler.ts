import { z } from 'zod';
import { parseBody } from '../_shared/body.ts';
import { bearerToken, requireUser } from '../_shared/clients.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import { getChallenge, RegistrationCredential, verifyRegistration } from './registration.ts';
import { syncState } from './sync-state.ts';

const Body = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('get_challenge'),
    friendlyName: z.string().trim().min(1).max(120).optional(),
  }),
  z.object({
    action: z.literal('verify_registration'),
    credential: RegistrationCredential,
    userId: z.string().optional(),
  }),
  z.object({ action: z.literal('sync_state') }),
]);

/**
 * two-factor-auth (docs/product.md §7): the biometric second factor's registration.
 * - get_challenge → {challenge, challengeId, factorId, expiresAt, options}: a WebAuthn creation challenge
 *   for the caller (60 s, single use), with the options of docs/product.md §9.6 (ES256, platform, UV preferred, no attestation).
 * - verify_registration {credential, userId} → {verified, factorId, session}: the attestation is checked,
 *   the auth server's factor verified (session aal2), the credential stored, two_factor_auth enabled.
 * - sync_state → {enabled, method}: two_factor_auth follows the caller's verified factors.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const { user, clients } = await requireUser(req);
  const token = bearerToken(req) ?? '';
  const body = await parseBody(req, Body);
  const caller = { user, token, admin: clients.admin };
  switch (body.action) {
    case 'get_challenge':
      return json(await getChallenge(caller, req.headers.get('origin'), body.friendlyName));
    case 'verify_registration':
      // The body (docs/product.md §7.4) names the user; it must be the caller, never someone the caller picks.
      if (body.userId !== undefined && body.userId !== user.id) {
        throw new HttpError(403, 'userId does not match the signed-in user');
      }
      return json(await verifyRegistration(caller, body.credential));
    case 'sync_state':
      return json(await syncState(user, clients.admin));
  }
});
