import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import {
  authFetch,
  latestMail,
  mailCount,
  openLink,
  otpFrom,
  uniqueEmail,
  verifyLink,
} from '../../helpers/auth-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
  setAuthSettings(stack.ctx.config, { rateLimits: { emailMinIntervalSeconds: 0 } });
});
afterAll(() => stack.close());

const CALLBACK = 'http://localhost:5173/auth/callback';

describe('sign-up with e-mail confirmation (PKCE)', () => {
  it('signs up with metadata, mails a working link, and the code from its redirect becomes a session', async () => {
    const supabase = client(stack);
    const email = uniqueEmail('signup');
    const { data, error } = await supabase.auth.signUp({
      email,
      password: 'correct horse',
      options: { data: { full_name: 'Ada Lovelace' }, emailRedirectTo: CALLBACK },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata.full_name).toBe('Ada Lovelace');
    expect(data.user?.identities).toHaveLength(1);

    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Confirm your Vigil account');
    expect(mail.html).toContain('Vigil');
    const link = verifyLink(mail);
    expect(link.startsWith(`${stack.url}/auth/v1/verify?token=pkce_`)).toBe(true);
    expect(link).toContain('type=signup');

    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    const code = location.searchParams.get('code');
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const exchanged = await supabase.auth.exchangeCodeForSession(code ?? '');
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.session?.user.email).toBe(email);
    expect(exchanged.data.session?.user.email_confirmed_at).toBeTruthy();
    expect(exchanged.data.session?.expires_in).toBe(3600);

    // The link and the code are single use.
    const again = await openLink(link);
    expect(again.location.hash).toContain('error_code=otp_expired');
    expect(again.location.searchParams.get('error')).toBe('access_denied');
    const reused = await client(stack).auth.exchangeCodeForSession(code ?? '');
    expect(reused.error).not.toBeNull();
  });

  it('refuses password sign-in until the address is confirmed, then accepts it', async () => {
    const supabase = client(stack);
    const email = uniqueEmail('unconfirmed');
    await supabase.auth.signUp({ email, password: 'secret-pass' });
    const early = await supabase.auth.signInWithPassword({ email, password: 'secret-pass' });
    expect(early.error?.message).toBe('Email not confirmed');
    expect(early.error?.code).toBe('email_not_confirmed');
    expect(early.error?.status).toBe(400);

    await openLink(verifyLink(await latestMail(stack, email)));
    const wrong = await supabase.auth.signInWithPassword({ email, password: 'not-it-at-all' });
    expect(wrong.error?.code).toBe('invalid_credentials');
    const ok = await supabase.auth.signInWithPassword({ email, password: 'secret-pass' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.access_token).toMatch(/^eyJ/);
  });

  it('answers a taken address with an obfuscated user without identities, and sends nothing', async () => {
    const email = uniqueEmail('dupe');
    const supabase = client(stack);
    await supabase.auth.signUp({ email, password: 'secret-pass' });
    await openLink(verifyLink(await latestMail(stack, email)));
    const before = await mailCount(stack, email);
    const { data, error } = await supabase.auth.signUp({ email, password: 'another-pass' });
    expect(error).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(await mailCount(stack, email)).toBe(before);
  });

  it('confirms through the implicit flow with tokens in the fragment', async () => {
    const email = uniqueEmail('implicit');
    const res = await authFetch(stack, `/signup?redirect_to=${encodeURIComponent('vigil://auth/callback')}`, {
      method: 'POST',
      body: JSON.stringify({
        email,
        password: 'secret-pass',
        code_challenge: null,
        code_challenge_method: null,
      }),
    });
    expect(res.status).toBe(200);
    const link = verifyLink(await latestMail(stack, email));
    expect(link).not.toContain('pkce_');
    const { location } = await openLink(link);
    expect(location.protocol).toBe('vigil:');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('access_token')).toMatch(/^eyJ/);
    expect(fragment.get('refresh_token')).toBeTruthy();
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('expires_in')).toBe('3600');
    const user = await client(stack).auth.getUser(fragment.get('access_token') ?? '');
    expect(user.data.user?.email).toBe(email);
  });

  it('sends links for foreign redirect targets to the site URL instead', async () => {
    const email = uniqueEmail('redirect');
    await client(stack).auth.signUp({
      email,
      password: 'secret-pass',
      options: { emailRedirectTo: 'https://evil.example/steal' },
    });
    const { location } = await openLink(verifyLink(await latestMail(stack, email)));
    expect(location.origin).toBe(stack.ctx.config.siteUrl);
  });

  it('verifies the six-digit code from the e-mail through verifyOtp', async () => {
    const email = uniqueEmail('otp');
    const supabase = client(stack);
    await supabase.auth.signUp({ email, password: 'secret-pass' });
    const code = otpFrom(await latestMail(stack, email));
    const wrong = await supabase.auth.verifyOtp({
      email,
      token: code === '000000' ? '111111' : '000000',
      type: 'email',
    });
    expect(wrong.error?.code).toBe('otp_expired');
    const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
  });

  it('resends the confirmation, and the new link replaces the old one', async () => {
    const email = uniqueEmail('resend');
    const supabase = client(stack);
    await supabase.auth.signUp({ email, password: 'secret-pass', options: { emailRedirectTo: CALLBACK } });
    const first = verifyLink(await latestMail(stack, email));
    const { error } = await supabase.auth.resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: CALLBACK },
    });
    expect(error).toBeNull();
    expect(await mailCount(stack, email)).toBe(2);
    const second = verifyLink(await latestMail(stack, email));
    expect(second).not.toBe(first);
    expect((await openLink(first)).location.hash).toContain('otp_expired');
    const { location } = await openLink(second);
    const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
    expect(exchanged.error).toBeNull();
  });

  it('signs in with a magic link through signInWithOtp', async () => {
    const email = uniqueEmail('magic');
    const supabase = client(stack);
    expect(
      (await supabase.auth.signInWithOtp({ email, options: { emailRedirectTo: CALLBACK } })).error,
    ).toBeNull();
    const { location } = await openLink(verifyLink(await latestMail(stack, email)));
    const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    const refused = await client(stack).auth.signInWithOtp({
      email: uniqueEmail('nobody'),
      options: { shouldCreateUser: false },
    });
    expect(refused.error?.code).toBe('otp_disabled');
  });
});
