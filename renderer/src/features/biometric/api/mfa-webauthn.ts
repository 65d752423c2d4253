// The aal2 step with a WebAuthn factor when the ceremony runs elsewhere (the desktop's browser hand-off): the
// auth server's challenge as JSON options, and the verify call with the credential JSON that came back.
import {
  bufferToBase64URLString,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

import { supabase } from '../../../lib/supabase.ts';

const base64url = (value: BufferSource): string =>
  bufferToBase64URLString(
    value instanceof ArrayBuffer
      ? value
      : value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength),
  );

/** The decoded request options as auth-js returns them (its own type is not exported). */
interface DecodedRequestOptions {
  challenge: BufferSource;
  rpId?: string;
  timeout?: number;
  userVerification?: UserVerificationRequirement;
  allowCredentials?: { id: BufferSource; transports?: string[] }[];
  hints?: unknown;
}

/** auth-js hands the challenge's options over decoded (ArrayBuffers); the relay needs them as JSON again. */
export function requestOptionsJSON(options: DecodedRequestOptions): PublicKeyCredentialRequestOptionsJSON {
  const hints = options.hints;
  return {
    challenge: base64url(options.challenge),
    rpId: options.rpId,
    timeout: options.timeout,
    userVerification: options.userVerification,
    allowCredentials: (options.allowCredentials ?? []).map((c) => ({
      id: base64url(c.id),
      type: 'public-key',
      transports: c.transports,
    })),
    ...(Array.isArray(hints) ? { hints: hints as PublicKeyCredentialRequestOptionsJSON['hints'] } : {}),
  };
}

export interface WebauthnChallenge {
  challengeId: string;
  /** When the auth server stops accepting an answer (ms since the epoch). */
  expiresAt: number;
  options: PublicKeyCredentialRequestOptionsJSON;
  rp: { rpId: string; rpOrigins: string[] };
}

/**
 * A challenge for a verified WebAuthn factor. `webUrl` is where the ceremony will run: auth-js sends the
 * RP from `location`, which on the desktop is app://vigil, so the web origin is named instead.
 */
export async function challengeWebauthnFactor(factorId: string, webUrl: string): Promise<WebauthnChallenge> {
  const rp = { rpId: new URL(webUrl).hostname, rpOrigins: [new URL(webUrl).origin] };
  const { data, error } = await (await supabase()).auth.mfa.challenge({ factorId, webauthn: rp });
  if (error) {
    throw error;
  }
  if (data.type !== 'webauthn' || data.webauthn.type !== 'request') {
    throw new Error('This factor is not a registered biometric.');
  }
  return {
    challengeId: data.id,
    expiresAt: data.expires_at * 1000,
    options: requestOptionsJSON(data.webauthn.credential_options.publicKey),
    rp,
  };
}

/** Verifies the assertion that came back; the session becomes aal2 in this client. */
export async function verifyWebauthnFactor(
  factorId: string,
  challenge: WebauthnChallenge,
  response: AuthenticationResponseJSON,
): Promise<{ error: Error | null }> {
  // auth-js serialises the credential with its toJSON (WebAuthn Level 3): the JSON is already that.
  // (auth-js does not export its AuthenticationCredential type, hence the cast.)
  const credential = { ...response, toJSON: () => response } as never;
  const { error } = await (
    await supabase()
  ).auth.mfa.verify({
    factorId,
    challengeId: challenge.challengeId,
    webauthn: { ...challenge.rp, type: 'request', credential_response: credential },
  });
  return { error };
}
