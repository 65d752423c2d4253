import type { SupabaseClient, User } from '@supabase/supabase-js';
import { verifyRegistrationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import { HttpError } from '../_shared/http.ts';
import { createChallenge, enrolWebauthn, verifyCreate } from './auth-factors.ts';
import { configuredRpId, originAllowed } from './relying-party.ts';

/** docs/product.md §9: 60 s to answer, ES256 only, the platform authenticator, user verification preferred, no attestation. */
export const CHALLENGE_TTL_MS = 60_000;
const ES256 = -7;

export const RegistrationCredential = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z
      .object({ clientDataJSON: z.string().min(1), attestationObject: z.string().min(1) })
      .passthrough(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().optional(),
  })
  .passthrough();

interface Caller {
  user: User;
  token: string;
  admin: SupabaseClient;
}

/** An unverified WebAuthn factor left from an abandoned attempt is reused rather than piling up. */
async function pendingOrNewFactor(caller: Caller, friendlyName: string | undefined): Promise<string> {
  const pending = (caller.user.factors ?? []).find(
    (f) => f.factor_type === 'webauthn' && f.status === 'unverified',
  );
  if (pending) {
    return pending.id;
  }
  const name = friendlyName ?? `Biometric (${new Date().toISOString().slice(0, 16).replace('T', ' ')})`;
  return (await enrolWebauthn(caller.token, name)).id;
}

/**
 * get_challenge: a fresh registration challenge bound to the caller, answerable for 60 s, once. It is the
 * auth server's own WebAuthn challenge, so the credential the device creates also verifies the factor.
 */
export async function getChallenge(caller: Caller, origin: string | null, friendlyName: string | undefined) {
  const rpId = configuredRpId();
  const factorId = await pendingOrNewFactor(caller, friendlyName);
  const auth = await createChallenge(caller.token, factorId, rpId, origin ? [origin] : []);
  const publicKey = auth.webauthn.credential_options.publicKey;
  // The auth server and this function must agree on the relying party, or no registration could verify.
  if (publicKey.rp.id !== rpId) {
    throw new Error(`relying party mismatch: auth server uses ${publicKey.rp.id}, the function ${rpId}`);
  }
  const expiresAt = new Date(Math.min(Date.now() + CHALLENGE_TTL_MS, auth.expires_at * 1000));
  const { data, error } = await caller.admin
    .from('webauthn_challenges')
    .insert({
      user_id: caller.user.id,
      challenge: publicKey.challenge,
      factor_id: factorId,
      auth_challenge_id: auth.id,
      rp_id: rpId,
      expires_at: expiresAt.toISOString(),
    })
    .select('id')
    .single<{ id: string }>();
  if (error) {
    throw new Error(`webauthn_challenges insert failed: ${error.message}`);
  }
  const options = {
    ...publicKey,
    timeout: CHALLENGE_TTL_MS,
    attestation: 'none',
    pubKeyCredParams: [{ type: 'public-key', alg: ES256 }],
    authenticatorSelection: {
      authenticatorAttachment: 'platform',
      userVerification: 'preferred',
      residentKey: 'discouraged',
      requireResidentKey: false,
    },
  };
  return {
    challenge: publicKey.challenge,
    challengeId: data.id,
    factorId,
    expiresAt: expiresAt.toISOString(),
    options,
  };
}

interface ChallengeRow {
  id: string;
  user_id: string;
  challenge: string;
  factor_id: string;
  auth_challenge_id: string;
  rp_id: string;
  expires_at: string;
  used_at: string | null;
}

/** Claims the challenge the credential answers: the caller's own, unexpired and unused (then spent). */
async function claimChallenge(caller: Caller, challenge: string): Promise<ChallengeRow> {
  const { data: row } = await caller.admin
    .from('webauthn_challenges')
    .select('*')
    .eq('challenge', challenge)
    .maybeSingle<ChallengeRow>();
  // Another user's challenge is reported exactly like an unknown one: nothing about it leaks.
  if (!row || row.user_id !== caller.user.id) {
    throw new HttpError(400, 'Unknown registration challenge: request a new one with get_challenge');
  }
  if (row.used_at) {
    throw new HttpError(400, 'This registration challenge was already used');
  }
  if (Date.parse(row.expires_at) <= Date.now()) {
    throw new HttpError(400, 'The registration challenge expired (60 s): request a new one');
  }
  const { data: claimed } = await caller.admin
    .from('webauthn_challenges')
    .update({ used_at: new Date().toISOString() })
    .eq('id', row.id)
    .is('used_at', null)
    .select('id');
  // Two concurrent answers to one challenge: only the first claim wins.
  if (!claimed || claimed.length !== 1) {
    throw new HttpError(400, 'This registration challenge was already used');
  }
  return row;
}

function clientData(credential: z.infer<typeof RegistrationCredential>): {
  challenge: string;
  origin: string;
} {
  try {
    const parsed = JSON.parse(isoBase64URL.toUTF8String(credential.response.clientDataJSON)) as Record<
      string,
      unknown
    >;
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    return { challenge: text(parsed.challenge), origin: text(parsed.origin) };
  } catch {
    throw new HttpError(400, 'credential.response.clientDataJSON is not base64url JSON');
  }
}

/**
 * verify_registration: checks the attestation (challenge, origin, RP id, user verification, ES256),
 * has the auth server verify the factor (the session becomes aal2), stores the credential and marks
 * two-factor authentication enabled with method biometric.
 */
export async function verifyRegistration(caller: Caller, credential: z.infer<typeof RegistrationCredential>) {
  const { challenge, origin } = clientData(credential);
  const row = await claimChallenge(caller, challenge);
  if (!originAllowed(origin, row.rp_id)) {
    throw new HttpError(
      400,
      `Registration origin ${JSON.stringify(origin)} is not allowed for relying party ${row.rp_id}`,
    );
  }
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: credential as never,
      expectedChallenge: row.challenge,
      expectedOrigin: origin,
      expectedRPID: row.rp_id,
      expectedType: 'webauthn.create',
      requireUserVerification: true,
      supportedAlgorithmIDs: [ES256],
    });
  } catch (e) {
    throw new HttpError(
      400,
      `Registration failed: ${e instanceof Error ? e.message : 'invalid attestation'}`,
    );
  }
  if (!verified.verified) {
    throw new HttpError(400, 'Registration failed: the attestation did not verify');
  }
  const session = await verifyCreate(
    caller.token,
    row.factor_id,
    row.auth_challenge_id,
    row.rp_id,
    origin,
    credential,
  );
  const info = verified.registrationInfo;
  const stored = await caller.admin.from('webauthn_credentials').insert({
    user_id: caller.user.id,
    factor_id: row.factor_id,
    credential_id: info.credential.id,
    public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: info.credential.transports ?? [],
    aaguid: info.aaguid,
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp,
  });
  if (stored.error) {
    throw new Error(`webauthn_credentials insert failed: ${stored.error.message}`);
  }
  const marked = await caller.admin
    .from('two_factor_auth')
    .upsert({ user_id: caller.user.id, is_enabled: true, method: 'biometric' }, { onConflict: 'user_id' });
  if (marked.error) {
    throw new Error(`two_factor_auth upsert failed: ${marked.error.message}`);
  }
  return { verified: true, factorId: row.factor_id, session };
}
