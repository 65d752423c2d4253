import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { uniqueEmail } from '../../helpers/auth-support.ts';
import { SoftwareAuthenticator, type FakePublicKeyCredential } from '../../helpers/webauthn-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const ORIGIN = 'http://localhost:5173';
const RP = { rpId: 'localhost', rpOrigins: [ORIGIN] };
type Supabase = TestUser['supabase'];

/** mfa.challenge for a WebAuthn factor: the decoded publicKey options, as navigator.credentials takes them. */
async function challenge(supabase: Supabase, factorId: string) {
  const { data, error } = await supabase.auth.mfa.challenge({ factorId, webauthn: RP });
  if (error || data?.type !== 'webauthn') {
    throw new Error(`challenge failed: ${error?.message ?? 'not webauthn'}`);
  }
  return data;
}

function verify(
  supabase: Supabase,
  factorId: string,
  challengeId: string,
  type: 'create' | 'request',
  credential: FakePublicKeyCredential,
) {
  return supabase.auth.mfa.verify({
    factorId,
    challengeId,
    webauthn: { type, ...RP, credential_response: credential as never },
  });
}

/** Enrols a WebAuthn factor and registers `authenticator`'s new credential: the session becomes aal2. */
async function register(user: TestUser, authenticator: SoftwareAuthenticator, friendlyName = 'Touch ID') {
  const enrolled = await user.supabase.auth.mfa.enroll({ factorType: 'webauthn', friendlyName });
  expect(enrolled.error).toBeNull();
  const factorId = enrolled.data?.id ?? '';
  const ch = await challenge(user.supabase, factorId);
  if (ch.webauthn.type !== 'create') {
    throw new Error('expected a create challenge');
  }
  const credential = await authenticator.create(ch.webauthn.credential_options.publicKey as never);
  const verified = await verify(user.supabase, factorId, ch.id, 'create', credential);
  expect(verified.error).toBeNull();
  return { factorId, publicKey: ch.webauthn.credential_options.publicKey };
}

/** A second, fresh password sign-in of the same user: aal1 until the second step. */
async function signInAgain(user: TestUser): Promise<Supabase> {
  const supabase = client(stack);
  const { error } = await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
  expect(error).toBeNull();
  return supabase;
}

const methods = (amr: { method: string }[] | undefined) => (amr ?? []).map((m) => m.method).sort();

describe('WebAuthn second factor (auth server)', () => {
  it('registers a platform credential with the options of docs/product.md §9.6 and yields aal2 with mfa/webauthn', async () => {
    const user = await signedInUser(stack, uniqueEmail('webauthn-reg'));
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const { factorId, publicKey } = await register(user, authenticator);
    expect(publicKey).toMatchObject({
      rp: { id: 'localhost', name: 'Vigil' },
      timeout: 60000,
      attestation: 'none',
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
      authenticatorSelection: { authenticatorAttachment: 'platform', userVerification: 'preferred' },
      hints: ['client-device'],
    });
    expect(publicKey.user.name).toBe(user.email);

    const aal = await user.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(methods(aal.data?.currentAuthenticationMethods as never)).toEqual(['mfa/webauthn', 'password']);
    const factors = await user.supabase.auth.mfa.listFactors();
    expect(factors.data?.webauthn.map((f) => [f.id, f.status])).toEqual([[factorId, 'verified']]);
  });

  it('asks a fresh password sign-in for the second step and verifies an assertion to aal2', async () => {
    const user = await signedInUser(stack, uniqueEmail('webauthn-auth'));
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const { factorId } = await register(user, authenticator);

    const later = await signInAgain(user);
    const before = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    const ch = await challenge(later, factorId);
    expect(ch.webauthn.type).toBe('request');
    if (ch.webauthn.type !== 'request') {
      return;
    }
    expect(ch.webauthn.credential_options.publicKey).toMatchObject({
      rpId: 'localhost',
      timeout: 60000,
      userVerification: 'preferred',
    });
    const assertion = await authenticator.get(ch.webauthn.credential_options.publicKey as never);
    const verified = await verify(later, factorId, ch.id, 'request', assertion);
    expect(verified.error).toBeNull();
    const after = await later.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(after.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(methods(after.data?.currentAuthenticationMethods as never)).toEqual(['mfa/webauthn', 'password']);
    const claims = await later.auth.getClaims();
    expect(claims.data?.claims.aal).toBe('aal2');

    // Replay: the verified challenge is spent, and the same assertion cannot answer a new challenge.
    const replay = await verify(later, factorId, ch.id, 'request', assertion);
    expect(replay.error?.status).toBe(404);
    const fresh = await challenge(later, factorId);
    const replayed = await verify(later, factorId, fresh.id, 'request', assertion);
    expect(replayed.error?.code).toBe('mfa_verification_failed');
    expect(replayed.error?.message).toMatch(/challenge/i);
  });

  it('refuses a signature counter that goes backwards (a cloned authenticator)', async () => {
    const user = await signedInUser(stack, uniqueEmail('webauthn-counter'));
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const { factorId } = await register(user, authenticator);
    const first = await challenge(user.supabase, factorId);
    const high = await authenticator.assert(
      authenticator.credential,
      first.webauthn.credential_options.publicKey.challenge as ArrayBuffer,
      'localhost',
      10,
    );
    expect((await verify(user.supabase, factorId, first.id, 'request', high)).error).toBeNull();
    const second = await challenge(user.supabase, factorId);
    const low = await authenticator.assert(
      authenticator.credential,
      second.webauthn.credential_options.publicKey.challenge as ArrayBuffer,
      'localhost',
      4,
    );
    const refused = await verify(user.supabase, factorId, second.id, 'request', low);
    expect(refused.error?.code).toBe('mfa_verification_failed');
    expect(refused.error?.message).toMatch(/counter/i);
  });

  it('refuses a wrong origin, a wrong relying-party id, a missing user verification and a wrong ceremony', async () => {
    const user = await signedInUser(stack, uniqueEmail('webauthn-origin'));
    const enrolled = await user.supabase.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Key' });
    const factorId = enrolled.data?.id ?? '';

    const phishing = new SoftwareAuthenticator({ origin: 'https://vigil-login.example' });
    let ch = await challenge(user.supabase, factorId);
    let refused = await verify(
      user.supabase,
      factorId,
      ch.id,
      'create',
      await phishing.create(ch.webauthn.credential_options.publicKey as never),
    );
    expect(refused.error?.code).toBe('mfa_verification_failed');
    expect(refused.error?.message).toContain('origin "https://vigil-login.example" is not allowed');

    // The desktop's app:// pages hand ceremonies to the browser; one signed there does not count.
    ch = await challenge(user.supabase, factorId);
    refused = await verify(
      user.supabase,
      factorId,
      ch.id,
      'create',
      await new SoftwareAuthenticator({ origin: 'app://vigil' }).create(
        ch.webauthn.credential_options.publicKey as never,
      ),
    );
    expect(refused.error?.message).toContain('origin "app://vigil" is not allowed');

    const wrongRp = new SoftwareAuthenticator({ origin: ORIGIN });
    ch = await challenge(user.supabase, factorId);
    const options = ch.webauthn.credential_options.publicKey as { rp: { id?: string } };
    refused = await verify(
      user.supabase,
      factorId,
      ch.id,
      'create',
      await wrongRp.create({ ...(options as object), rp: { id: 'evil.example' } } as never),
    );
    expect(refused.error?.code).toBe('mfa_verification_failed');
    expect(refused.error?.message).toMatch(/RP ID/i);

    const presenceOnly = new SoftwareAuthenticator({ origin: ORIGIN, userVerified: false });
    ch = await challenge(user.supabase, factorId);
    refused = await verify(
      user.supabase,
      factorId,
      ch.id,
      'create',
      await presenceOnly.create(ch.webauthn.credential_options.publicKey as never),
    );
    expect(refused.error?.message).toMatch(/user could not be verified/i);

    ch = await challenge(user.supabase, factorId);
    const honest = new SoftwareAuthenticator({ origin: ORIGIN });
    refused = await verify(
      user.supabase,
      factorId,
      ch.id,
      'request',
      await honest.create(ch.webauthn.credential_options.publicKey as never),
    );
    expect(refused.error?.message).toContain('expected a "create" response');

    const aal = await user.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it("refuses another user's credential and another user's factor", async () => {
    const alice = await signedInUser(stack, uniqueEmail('webauthn-alice'));
    const bob = await signedInUser(stack, uniqueEmail('webauthn-bob'));
    const aliceKey = new SoftwareAuthenticator({ origin: ORIGIN });
    const bobKey = new SoftwareAuthenticator({ origin: ORIGIN });
    const { factorId: aliceFactor } = await register(alice, aliceKey);
    const { factorId: bobFactor } = await register(bob, bobKey);

    // Alice's authenticator answers Bob's challenge: not the credential registered for Bob's factor.
    const bobLater = await signInAgain(bob);
    const ch = await challenge(bobLater, bobFactor);
    const aliceAssertion = await aliceKey.assert(
      aliceKey.credential,
      ch.webauthn.credential_options.publicKey.challenge as ArrayBuffer,
      'localhost',
    );
    const refused = await verify(bobLater, bobFactor, ch.id, 'request', aliceAssertion);
    expect(refused.error?.message).toContain('not the one registered for this factor');
    expect((await bobLater.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    // Bob cannot even see Alice's factor.
    const foreign = await bobLater.auth.mfa.challenge({ factorId: aliceFactor, webauthn: RP });
    expect(foreign.error?.code).toBe('mfa_factor_not_found');
  });

  it('expires challenges', async () => {
    const user = await signedInUser(stack, uniqueEmail('webauthn-expiry'));
    const enrolled = await user.supabase.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Key' });
    const factorId = enrolled.data?.id ?? '';
    setAuthSettings(stack.ctx.config, { mfaChallengeExpirySeconds: 1 });
    try {
      const ch = await challenge(user.supabase, factorId);
      expect(ch.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(1);
      const credential = await new SoftwareAuthenticator({ origin: ORIGIN }).create(
        ch.webauthn.credential_options.publicKey as never,
      );
      await new Promise((r) => setTimeout(r, 2100));
      const late = await verify(user.supabase, factorId, ch.id, 'create', credential);
      expect(late.error?.code).toBe('mfa_challenge_expired');
    } finally {
      setAuthSettings(stack.ctx.config, { mfaChallengeExpirySeconds: 300 });
    }
  });

  it('lets only an aal2 session remove a verified WebAuthn factor', async () => {
    const user = await signedInUser(stack, uniqueEmail('webauthn-remove'));
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const { factorId } = await register(user, authenticator);
    const later = await signInAgain(user);
    const refused = await later.auth.mfa.unenroll({ factorId });
    expect(refused.error?.code).toBe('insufficient_aal');
    const ch = await challenge(later, factorId);
    await verify(
      later,
      factorId,
      ch.id,
      'request',
      await authenticator.get(ch.webauthn.credential_options.publicKey as never),
    );
    const removed = await later.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect((await later.auth.mfa.listFactors()).data?.all).toEqual([]);
  });
});
