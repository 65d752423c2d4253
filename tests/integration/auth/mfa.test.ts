import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { uniqueEmail } from '../../helpers/auth-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const codeFor = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

async function signedIn(tag: string) {
  const email = uniqueEmail(tag);
  const password = 'secret-pass';
  await client(stack, 'service_role').auth.admin.createUser({ email, password, email_confirm: true });
  const supabase = client(stack);
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return { supabase, email, password };
}

describe('TOTP second factor', () => {
  it('enrols, challenges and verifies to an aal2 session, then unenrols only at aal2', async () => {
    const { supabase, email, password } = await signedIn('totp');
    const enrolled = await supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone',
      issuer: 'Vigil',
    });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data;
    if (!factor || factor.type !== 'totp') {
      throw new Error('no totp factor');
    }
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(factor.totp.uri).toContain(`otpauth://totp/Vigil:${encodeURIComponent(email)}?`);
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]+$/);

    const listed = await supabase.auth.mfa.listFactors();
    expect(listed.data?.all.map((f) => f.status)).toEqual(['unverified']);
    expect(listed.data?.totp).toEqual([]);

    const challenge = await supabase.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.type).toBe('totp');
    const wrong = await supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(factor.totp.secret, 20),
    });
    expect(wrong.error?.code).toBe('mfa_verification_failed');
    expect(wrong.error?.message).toBe('Invalid TOTP code entered');
    expect(wrong.error?.status).toBe(422);

    const verified = await supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    const aal = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data?.currentLevel).toBe('aal2');
    expect(aal.data?.nextLevel).toBe('aal2');
    expect(
      aal.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method)).sort(),
    ).toEqual(['password', 'totp']);

    // A verified challenge cannot be replayed.
    const replay = await supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(factor.totp.secret),
    });
    expect(replay.error?.status).toBe(404);

    // A fresh password sign-in is aal1 with aal2 available, and may not strip the factor.
    const other = client(stack);
    await other.auth.signInWithPassword({ email, password });
    const otherAal = await other.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(otherAal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const refused = await other.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error?.code).toBe('insufficient_aal');
    const second = await other.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(second.error?.code).toBe('insufficient_aal');

    const removed = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data?.id).toBe(factor.id);
    const user = await supabase.auth.getUser();
    expect(user.data.user?.factors ?? []).toEqual([]);
  });

  it("keeps factors per user: another user's factor is not found", async () => {
    const a = await signedIn('owner');
    const b = await signedIn('intruder');
    const enrolled = await a.supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'A' });
    const id = enrolled.data?.id ?? '';
    expect((await b.supabase.auth.mfa.challenge({ factorId: id })).error?.code).toBe('mfa_factor_not_found');
    expect((await b.supabase.auth.mfa.unenroll({ factorId: id })).error?.code).toBe('mfa_factor_not_found');
    const dupe = await a.supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'A' });
    expect(dupe.error?.code).toBe('mfa_factor_name_conflict');
  });
});
