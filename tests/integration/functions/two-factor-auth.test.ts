import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { RunningStack } from '../../../server/stack.ts';
import { INSUFFICIENT_AAL } from '../../../supabase/functions/_shared/clients.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { uniqueEmail } from '../../helpers/auth-support.ts';
import { SoftwareAuthenticator } from '../../helpers/webauthn-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const ORIGIN = 'http://localhost:5173';

interface ChallengeReply {
  challenge: string;
  challengeId: string;
  factorId: string;
  expiresAt: string;
  options: {
    challenge: string;
    rp: { id: string; name: string };
    timeout: number;
    attestation: string;
    pubKeyCredParams: { alg: number }[];
    authenticatorSelection: Record<string, unknown>;
  };
}

/** Calls the function through supabase-js; a non-2xx answer comes back as {status, body}. */
async function call(user: TestUser, body: Record<string, unknown>) {
  const result = await user.supabase.functions.invoke<Record<string, unknown>>('two-factor-auth', { body });
  if (result.error) {
    const res = (result.error as { context?: Response }).context;
    return { status: res?.status ?? 0, body: (await res?.json()) as { error: string } };
  }
  return { status: 200, body: result.data ?? {} };
}

async function getChallenge(user: TestUser): Promise<ChallengeReply> {
  const res = await call(user, { action: 'get_challenge' });
  expect(res.status).toBe(200);
  return res.body as unknown as ChallengeReply;
}

/** What the page does with the options: navigator.credentials.create with the decoded challenge. */
async function createCredential(authenticator: SoftwareAuthenticator, reply: ChallengeReply) {
  const credential = await authenticator.create({
    ...reply.options,
    challenge: isoBase64URL.toBuffer(reply.challenge),
  });
  return credential.toJSON();
}

describe('two-factor-auth edge function', () => {
  it('registers a biometric credential: the factor counts for aal2 and two_factor_auth is enabled', async () => {
    const user = await signedInUser(stack, uniqueEmail('tfa-register'));
    const reply = await getChallenge(user);
    expect(reply.challenge).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(reply.options).toMatchObject({
      challenge: reply.challenge,
      rp: { id: 'localhost', name: 'Vigil' },
      timeout: 60000,
      attestation: 'none',
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
      authenticatorSelection: { authenticatorAttachment: 'platform', userVerification: 'preferred' },
    });
    expect(Date.parse(reply.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);

    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const credential = await createCredential(authenticator, reply);
    const done = await call(user, { action: 'verify_registration', credential, userId: user.id });
    expect(done.status).toBe(200);
    const body = done.body as {
      verified: boolean;
      factorId: string;
      session: { access_token: string; refresh_token: string };
    };
    expect(body).toMatchObject({ verified: true, factorId: reply.factorId });

    await user.supabase.auth.setSession(body.session);
    const aal = await user.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const state = await user.supabase.from('two_factor_auth').select('is_enabled, method').single();
    expect(state.data).toEqual({ is_enabled: true, method: 'biometric' });
    const stored = await client(stack, 'service_role')
      .from('webauthn_credentials')
      .select('credential_id, counter, factor_id')
      .eq('user_id', user.id);
    expect(stored.data).toEqual([{ credential_id: credential.id, counter: 0, factor_id: reply.factorId }]);
    // Credentials are the service's: a customer cannot read or write them.
    const own = await user.supabase.from('webauthn_credentials').select('*');
    expect(own.error?.code).toBe('42501');
    const forged = await user.supabase
      .from('webauthn_challenges')
      .insert({ challenge: 'x'.repeat(43) } as never);
    expect(forged.error).not.toBeNull();

    // The replayed registration is refused: the challenge is spent.
    const replay = await call(user, { action: 'verify_registration', credential, userId: user.id });
    expect(replay).toEqual({ status: 400, body: { error: 'This registration challenge was already used' } });

    // A later password sign-in is aal1 until the same device signs an assertion.
    const later = client(stack);
    await later.auth.signInWithPassword({ email: user.email, password: user.password });
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    });
    const ch = await later.auth.mfa.challenge({
      factorId: reply.factorId,
      webauthn: { rpId: 'localhost', rpOrigins: [ORIGIN] },
    });
    if (ch.data?.type !== 'webauthn' || ch.data.webauthn.type !== 'request') {
      throw new Error('expected a request challenge');
    }
    const assertion = await authenticator.get(ch.data.webauthn.credential_options.publicKey as never);
    const verified = await later.auth.mfa.verify({
      factorId: reply.factorId,
      challengeId: ch.data.id,
      webauthn: {
        type: 'request',
        rpId: 'localhost',
        rpOrigins: [ORIGIN],
        credential_response: assertion as never,
      },
    });
    expect(verified.error).toBeNull();
    expect((await later.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');

    // Removing the factor (at aal2) and syncing turns two-factor off and drops the stored credential.
    expect((await later.auth.mfa.unenroll({ factorId: reply.factorId })).error).toBeNull();
    const synced = await call(user, { action: 'sync_state' });
    expect(synced.body).toEqual({ enabled: false, method: 'biometric' });
    expect((await user.supabase.from('two_factor_auth').select('is_enabled').single()).data).toEqual({
      is_enabled: false,
    });
    const left = await client(stack, 'service_role')
      .from('webauthn_credentials')
      .select('id')
      .eq('user_id', user.id);
    expect(left.data).toEqual([]);
  });

  it('refuses expired, foreign and mismatched registrations with clear errors', async () => {
    const alice = await signedInUser(stack, uniqueEmail('tfa-alice'));
    const bob = await signedInUser(stack, uniqueEmail('tfa-bob'));
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });

    const forAlice = await getChallenge(alice);
    const aliceCredential = await createCredential(authenticator, forAlice);
    // Bob answers Alice's challenge, or names Alice as the user: both refused.
    expect(
      await call(bob, { action: 'verify_registration', credential: aliceCredential, userId: bob.id }),
    ).toEqual({
      status: 400,
      body: { error: 'Unknown registration challenge: request a new one with get_challenge' },
    });
    expect(
      await call(bob, { action: 'verify_registration', credential: aliceCredential, userId: alice.id }),
    ).toEqual({
      status: 403,
      body: { error: 'userId does not match the signed-in user' },
    });

    // Expired: the row's 60 s are over.
    await client(stack, 'service_role')
      .from('webauthn_challenges')
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq('id', forAlice.challengeId);
    const late = await call(alice, {
      action: 'verify_registration',
      credential: aliceCredential,
      userId: alice.id,
    });
    expect(late).toEqual({
      status: 400,
      body: { error: 'The registration challenge expired (60 s): request a new one' },
    });

    // Wrong origin (a look-alike site) and no user verification.
    const phishing = new SoftwareAuthenticator({ origin: 'https://vigil-secure.example' });
    const wrongOrigin = await call(alice, {
      action: 'verify_registration',
      credential: await createCredential(phishing, await getChallenge(alice)),
    });
    expect(wrongOrigin.status).toBe(400);
    expect(wrongOrigin.body.error).toContain('origin "https://vigil-secure.example" is not allowed');
    // The desktop app's own pages never run a ceremony (it hands it to the browser): app:// is no origin.
    const desktopPage = new SoftwareAuthenticator({ origin: 'app://vigil' });
    const fromApp = await call(alice, {
      action: 'verify_registration',
      credential: await createCredential(desktopPage, await getChallenge(alice)),
    });
    expect(fromApp.status).toBe(400);
    expect(fromApp.body.error).toContain('origin "app://vigil" is not allowed');
    const presence = new SoftwareAuthenticator({ origin: ORIGIN, userVerified: false });
    const noUv = await call(alice, {
      action: 'verify_registration',
      credential: await createCredential(presence, await getChallenge(alice)),
    });
    expect(noUv.status).toBe(400);
    expect(noUv.body.error).toMatch(/^Registration failed: .*user could not be verified/i);

    // Malformed bodies are the caller's mistake.
    expect((await call(alice, { action: 'verify_registration', credential: { id: 'x' } })).status).toBe(400);
    expect((await call(alice, { action: 'nope' })).status).toBe(400);
    expect(
      (await client(stack).functions.invoke('two-factor-auth', { body: { action: 'get_challenge' } })).error,
    ).not.toBeNull();

    const state = await alice.supabase.from('two_factor_auth').select('is_enabled');
    expect(state.data).toEqual([]);
  });

  it('needs aal2 to add a biometric factor once another factor is verified', async () => {
    const user = await signedInUser(stack, uniqueEmail('tfa-aal'));
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const first = await call(user, {
      action: 'verify_registration',
      credential: await createCredential(authenticator, await getChallenge(user)),
    });
    expect(first.status).toBe(200);
    const later = client(stack);
    await later.auth.signInWithPassword({ email: user.email, password: user.password });
    const token = (await later.auth.getSession()).data.session?.access_token ?? '';
    const res = await fetch(`${stack.url}/functions/v1/two-factor-auth`, {
      method: 'POST',
      headers: {
        apikey: stack.status.anon_key,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ action: 'get_challenge' }),
    });
    // Refused before the auth server is asked: a password-only session acts for no one with a factor.
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: 'insufficient_aal',
      error_code: 'insufficient_aal',
      msg: INSUFFICIENT_AAL,
      message: INSUFFICIENT_AAL,
      error: INSUFFICIENT_AAL,
    });
  });
});
