// The biometric hand-off between the desktop app and the relay page (/auth/webauthn-relay) in the system
// browser: the request travels in the relay URL's fragment (never its query, so it reaches no server log),
// the answer returns in a vigil://auth/webauthn link. Both directions are validated here with zod.
import {
  base64URLStringToBuffer,
  bufferToBase64URLString,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { z } from 'zod';

import {
  WEBAUTHN_RELAY_PATH,
  WEBAUTHN_RETURN_LINK,
  webauthnState as state,
} from '../../../../../shared/deep-links.ts';

export type RelayMode = 'register' | 'authenticate';
export type RelayErrorCode = 'cancelled' | 'unsupported';

const b64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url');
const id = b64url.max(1024);
const descriptor = z.object({
  id,
  type: z.literal('public-key'),
  transports: z.array(z.string().max(32)).max(10).optional(),
});
const hints = z
  .array(z.enum(['hybrid', 'security-key', 'client-device']))
  .max(3)
  .optional();
const timeout = z.number().int().positive().max(600_000).optional();
const userVerification = z.enum(['required', 'preferred', 'discouraged']).optional();

/** What the auth server's registration challenge asks the authenticator (two-factor-auth get_challenge). */
const CreationOptions = z.object({
  rp: z.object({ id: z.string().min(1).max(253), name: z.string().min(1).max(100) }),
  user: z.object({ id: id, name: z.string().min(1).max(320), displayName: z.string().max(320) }),
  challenge: b64url.min(16).max(512),
  pubKeyCredParams: z
    .array(z.object({ type: z.literal('public-key'), alg: z.number().int() }))
    .min(1)
    .max(10),
  timeout,
  excludeCredentials: z.array(descriptor).max(20).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      residentKey: z.enum(['required', 'preferred', 'discouraged']).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification,
    })
    .optional(),
  hints,
  attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
});

/** What the aal2 step's challenge asks (auth server /factors/:id/challenge). */
const RequestOptions = z.object({
  rpId: z.string().min(1).max(253),
  challenge: b64url.min(16).max(512),
  timeout,
  allowCredentials: z.array(descriptor).min(1).max(20),
  userVerification,
  hints,
});

const RelayRequest = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('register'), state, options: CreationOptions }),
  z.object({ mode: z.literal('authenticate'), state, options: RequestOptions }),
]);
export type RelayRequest =
  | { mode: 'register'; state: string; options: PublicKeyCredentialCreationOptionsJSON }
  | { mode: 'authenticate'; state: string; options: PublicKeyCredentialRequestOptionsJSON };

const encodeJson = (value: unknown): string =>
  bufferToBase64URLString(new TextEncoder().encode(JSON.stringify(value)).buffer);

function decodeJson(text: string): unknown {
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64URLStringToBuffer(text)));
}

/** A fresh state nonce: 32 random bytes, base64url (43 characters). */
export function newRelayState(): string {
  return bufferToBase64URLString(crypto.getRandomValues(new Uint8Array(32)).buffer);
}

/** The relay page's URL on the web origin, the request in its fragment. */
export function relayUrl(webUrl: string, request: RelayRequest): string {
  const fragment = new URLSearchParams({
    mode: request.mode,
    state: request.state,
    options: encodeJson(request.options),
  });
  return `${new URL(webUrl).origin}${WEBAUTHN_RELAY_PATH}#${fragment.toString()}`;
}

/**
 * Whether a page on `hostname` may run a ceremony for `rpId`: the host is the RP id or one of its
 * subdomains, and the RP id is a registrable name ('localhost' only on localhost itself). Guards against a
 * page on another host being used to sign for our relying party, or ours for someone else's.
 */
export function rpIdAllowedOn(rpId: string, hostname: string): boolean {
  const host = hostname.toLowerCase();
  const rp = rpId.toLowerCase();
  if (rp === 'localhost') {
    return host === 'localhost';
  }
  return rp.includes('.') && !/^[\d.]+$/.test(rp) && (host === rp || host.endsWith(`.${rp}`));
}

export type DecodedRelay = { ok: true; request: RelayRequest } | { ok: false; reason: string };

/** Reads and checks the relay page's fragment (`location.hash`) for a page on `hostname`. */
export function decodeRelayFragment(hash: string, hostname: string): DecodedRelay {
  if (hash.length > 16_384) {
    return { ok: false, reason: 'the link is too long' };
  }
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const keys = [...params.keys()];
  if (keys.length !== 3 || new Set(keys).size !== 3) {
    return { ok: false, reason: 'the link must carry exactly mode, state and options' };
  }
  let options: unknown;
  try {
    options = decodeJson(params.get('options') ?? '');
  } catch {
    return { ok: false, reason: 'the options are not base64url JSON' };
  }
  const parsed = RelayRequest.safeParse({ mode: params.get('mode'), state: params.get('state'), options });
  if (!parsed.success) {
    return { ok: false, reason: `invalid request: ${parsed.error.issues[0]?.message ?? 'unknown'}` };
  }
  const request = parsed.data as RelayRequest;
  const rpId = request.mode === 'register' ? request.options.rp.id : request.options.rpId;
  if (!rpId || !rpIdAllowedOn(rpId, hostname)) {
    return { ok: false, reason: `this page may not confirm for ${rpId ?? 'an unnamed relying party'}` };
  }
  return { ok: true, request };
}

/** The vigil:// link that carries the credential response back to the app. */
export const returnLink = (
  stateValue: string,
  response: RegistrationResponseJSON | AuthenticationResponseJSON,
) =>
  `${WEBAUTHN_RETURN_LINK}?${new URLSearchParams({ state: stateValue, response: encodeJson(response) }).toString()}`;

/** The vigil:// link that tells the app the ceremony will not happen. */
export const returnErrorLink = (stateValue: string, error: RelayErrorCode) =>
  `${WEBAUTHN_RETURN_LINK}?${new URLSearchParams({ state: stateValue, error }).toString()}`;

const clientExtensionResults = z.record(z.string(), z.unknown()).default({});
const common = {
  id,
  rawId: id,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
};
const RegistrationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url.max(4096),
    attestationObject: b64url.max(8192),
    authenticatorData: b64url.max(4096).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url.max(2048).optional(),
  }),
});
const AuthenticationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url.max(4096),
    authenticatorData: b64url.max(4096),
    signature: b64url.max(1024),
    userHandle: b64url.max(1024).optional(),
  }),
});

/** The credential response a vigil://auth/webauthn link carries, checked for the ceremony that was asked. */
export function decodeRelayResponse(mode: 'register', encoded: string): RegistrationResponseJSON;
export function decodeRelayResponse(mode: 'authenticate', encoded: string): AuthenticationResponseJSON;
export function decodeRelayResponse(
  mode: RelayMode,
  encoded: string,
): RegistrationResponseJSON | AuthenticationResponseJSON {
  let value: unknown;
  try {
    value = decodeJson(encoded);
  } catch {
    throw new Error('The browser returned an unreadable response.');
  }
  const parsed = (mode === 'register' ? RegistrationResponse : AuthenticationResponse).safeParse(value);
  if (!parsed.success) {
    throw new Error('The browser returned a response for a different kind of confirmation.');
  }
  return parsed.data;
}
