import type { StackContext } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import { authError } from '../errors.ts';
import { authSettings } from '../settings.ts';
import { findUserById } from '../users.ts';
import {
  credentialInUse,
  StoredCredential,
  verifiedCredentials,
  WebauthnSession,
  WebauthnVerifyBody,
} from './webauthn-credential.ts';
import type { ChallengeRow, FactorKind, FactorRow } from './factor-kind.ts';
import { relyingParty } from './webauthn-relying-party.ts';

/** docs/product.md §9: a biometric ceremony has 60 s; ES256 only; the platform authenticator; no attestation. */
export const WEBAUTHN_TIMEOUT_MS = 60_000;
const ES256 = -7;

/**
 * @simplewebauthn/server with its helpers, loaded with the first WebAuthn ceremony: with the ASN.1 and COSE
 * libraries under it, it took the stack ~8 MB of heap and half a second of start-up.
 */
async function library() {
  const [server, helpers] = await Promise.all([
    import('@simplewebauthn/server'),
    import('@simplewebauthn/server/helpers'),
  ]);
  return { ...server, ...helpers };
}
type Library = Awaited<ReturnType<typeof library>>;

const failed = (reason: string) =>
  authError(422, 'mfa_verification_failed', `WebAuthn verification failed: ${reason}`);

/** The origin the browser signed into clientDataJSON, checked against the relying party's own list. */
function checkedOrigin(ctx: StackContext, clientDataJSON: unknown, { isoBase64URL }: Library): string {
  let origin: unknown;
  try {
    origin = (JSON.parse(isoBase64URL.toUTF8String(String(clientDataJSON))) as { origin?: unknown }).origin;
  } catch {
    throw failed('clientDataJSON is not valid base64url JSON');
  }
  // Guards against a ceremony run on another site (phishing) or in an unexpected frame.
  if (typeof origin !== 'string' || !relyingParty(ctx.config).allowsOrigin(origin)) {
    throw failed(
      `origin ${JSON.stringify(origin)} is not allowed for relying party ${relyingParty(ctx.config).id}`,
    );
  }
  return origin;
}

function sessionOf(challenge: ChallengeRow): WebauthnSession {
  const parsed = WebauthnSession.safeParse(challenge.web_authn_session_data);
  if (!parsed.success) {
    throw failed('the challenge was not issued for WebAuthn');
  }
  return parsed.data;
}

async function verifyCreate(
  ctx: StackContext,
  tx: Queryable,
  factor: FactorRow,
  session: WebauthnSession,
  body: WebauthnVerifyBody,
) {
  const response = body.webauthn.credential_response;
  const lib = await library();
  const origin = checkedOrigin(ctx, response.response.clientDataJSON, lib);
  let result;
  try {
    result = await lib.verifyRegistrationResponse({
      response: response as never,
      expectedChallenge: session.challenge,
      expectedOrigin: origin,
      expectedRPID: session.rp_id,
      expectedType: 'webauthn.create',
      requireUserVerification: true,
      supportedAlgorithmIDs: [ES256],
    });
  } catch (e) {
    throw failed(e instanceof Error ? e.message : 'invalid registration response');
  }
  if (!result.verified) {
    throw failed('the attestation did not verify');
  }
  const info = result.registrationInfo;
  // One credential counts for one factor only: a second enrolment of it would double-count one device.
  if (await credentialInUse(tx, info.credential.id)) {
    throw failed('this credential is already registered');
  }
  const stored: StoredCredential = {
    id: info.credential.id,
    public_key: lib.isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: info.credential.transports ?? [],
    aaguid: info.aaguid,
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp,
  };
  await tx.query(
    'update auth.mfa_factors set web_authn_credential = $2, web_authn_aaguid = $3, updated_at = now() where id = $1',
    [factor.id, JSON.stringify(stored), info.aaguid],
  );
}

async function verifyRequest(
  ctx: StackContext,
  tx: Queryable,
  factor: FactorRow,
  session: WebauthnSession,
  body: WebauthnVerifyBody,
) {
  const response = body.webauthn.credential_response;
  const stored = StoredCredential.safeParse(factor.web_authn_credential);
  if (!stored.success) {
    throw failed('this factor has no registered credential');
  }
  // Another authenticator's (or another user's) assertion never stands in for this factor's credential.
  if (response.id !== stored.data.id || response.rawId !== stored.data.id) {
    throw failed('the credential is not the one registered for this factor');
  }
  const lib = await library();
  const origin = checkedOrigin(ctx, response.response.clientDataJSON, lib);
  let result;
  try {
    result = await lib.verifyAuthenticationResponse({
      response: response as never,
      expectedChallenge: session.challenge,
      expectedOrigin: origin,
      expectedRPID: session.rp_id,
      expectedType: 'webauthn.get',
      requireUserVerification: true,
      credential: {
        id: stored.data.id,
        publicKey: lib.isoBase64URL.toBuffer(stored.data.public_key),
        counter: stored.data.counter,
        transports: stored.data.transports,
      },
    });
  } catch (e) {
    throw failed(e instanceof Error ? e.message : 'invalid assertion');
  }
  if (!result.verified) {
    throw failed('the assertion signature did not verify');
  }
  const next = { ...stored.data, counter: result.authenticationInfo.newCounter };
  await tx.query('update auth.mfa_factors set web_authn_credential = $2, updated_at = now() where id = $1', [
    factor.id,
    JSON.stringify(next),
  ]);
}

/**
 * WebAuthn factors (GoTrue's MFA shape), checked with @simplewebauthn/server.
 * An unverified factor is challenged to create a credential, a verified one to sign an assertion.
 */
export const webauthnKind: FactorKind = {
  type: 'webauthn',
  amr: 'mfa/webauthn',
  challengeExpirySeconds(ctx) {
    return Math.min(WEBAUTHN_TIMEOUT_MS / 1000, authSettings(ctx.config).mfaChallengeExpirySeconds);
  },
  enroll() {
    return Promise.resolve({ secret: null, response: {} });
  },
  async challenge(ctx, factor) {
    const rp = relyingParty(ctx.config);
    const lib = await library();
    if (factor.status === 'verified') {
      const stored = StoredCredential.safeParse(factor.web_authn_credential);
      if (!stored.success) {
        throw authError(422, 'mfa_verification_failed', 'This WebAuthn factor has no registered credential');
      }
      const options = await lib.generateAuthenticationOptions({
        rpID: rp.id,
        timeout: WEBAUTHN_TIMEOUT_MS,
        userVerification: 'preferred',
        allowCredentials: [{ id: stored.data.id, transports: stored.data.transports }],
      });
      const publicKey = { ...options, hints: ['client-device'] };
      const sessionData: WebauthnSession = { type: 'request', challenge: options.challenge, rp_id: rp.id };
      return { response: { webauthn: { type: 'request', credential_options: { publicKey } } }, sessionData };
    }
    const user = await findUserById(ctx.db, factor.user_id);
    const name = user?.email || factor.user_id;
    const existing = await verifiedCredentials(ctx.db, factor.user_id);
    const publicKey = await lib.generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userID: lib.isoUint8Array.fromUTF8String(factor.user_id),
      userName: name,
      userDisplayName: factor.friendly_name || name,
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestationType: 'none',
      supportedAlgorithmIDs: [ES256],
      excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
      authenticatorSelection: {
        authenticatorAttachment: 'platform',
        userVerification: 'preferred',
        residentKey: 'discouraged',
      },
      preferredAuthenticatorType: 'localDevice',
    });
    const sessionData: WebauthnSession = { type: 'create', challenge: publicKey.challenge, rp_id: rp.id };
    return { response: { webauthn: { type: 'create', credential_options: { publicKey } } }, sessionData };
  },
  async verify(ctx, tx, factor, challenge, body) {
    const parsed = WebauthnVerifyBody.safeParse(body);
    if (!parsed.success) {
      throw authError(
        400,
        'validation_failed',
        'webauthn.type and webauthn.credential_response are required',
      );
    }
    const session = sessionOf(challenge);
    // A registration answer to an assertion challenge (or the reverse) is a different ceremony.
    if (parsed.data.webauthn.type !== session.type) {
      throw failed(`expected a "${session.type}" response for this challenge`);
    }
    if (session.type === 'create') {
      await verifyCreate(ctx, tx, factor, session, parsed.data);
    } else {
      await verifyRequest(ctx, tx, factor, session, parsed.data);
    }
    return true;
  },
};
