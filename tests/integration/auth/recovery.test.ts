import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthChangeEvent } from '@supabase/supabase-js';
import type { RunningStack } from '../../../server/stack.ts';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import {
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
});
afterAll(() => stack.close());

const RESET = 'vigil://auth/reset-password';

async function confirmedUser(tag: string, password = 'first-password') {
  const email = uniqueEmail(tag);
  const created = await client(stack, 'service_role').auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  return { email, password };
}

describe('password recovery', () => {
  it('mails a reset link whose code signs in as PASSWORD_RECOVERY, and the new password works', async () => {
    const { email, password } = await confirmedUser('reset');
    const supabase = client(stack);
    const events: AuthChangeEvent[] = [];
    supabase.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    expect((await supabase.auth.resetPasswordForEmail(email, { redirectTo: RESET })).error).toBeNull();
    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Reset your Vigil password');
    const link = verifyLink(mail);
    expect(link).toContain('type=recovery');
    const { status, location } = await openLink(link);
    expect(status).toBe(303);
    expect(location.protocol).toBe('vigil:');
    const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
    expect(exchanged.error).toBeNull();
    expect((exchanged.data as { redirectType?: string }).redirectType).toBe('recovery');
    expect(events).toContain('PASSWORD_RECOVERY');

    const same = await supabase.auth.updateUser({ password });
    expect(same.error?.code).toBe('same_password');
    const weak = await supabase.auth.updateUser({ password: 'abc' });
    expect(weak.error?.code).toBe('weak_password');
    expect(weak.error?.status).toBe(422);
    expect((await supabase.auth.updateUser({ password: 'brand-new-password' })).error).toBeNull();

    const old = await client(stack).auth.signInWithPassword({ email, password });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await client(stack).auth.signInWithPassword({ email, password: 'brand-new-password' });
    expect(fresh.error).toBeNull();
  });

  it('answers unknown addresses the same way and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    expect((await client(stack).auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(await mailCount(stack, email)).toBe(0);
  });

  it('limits recovery e-mails to one per address per interval', async () => {
    const { email } = await confirmedUser('throttle');
    setAuthSettings(stack.ctx.config, { rateLimits: { emailMinIntervalSeconds: 60 } });
    try {
      expect((await client(stack).auth.resetPasswordForEmail(email)).error).toBeNull();
      const second = await client(stack).auth.resetPasswordForEmail(email);
      expect(second.error?.code).toBe('over_email_send_rate_limit');
      expect(second.error?.status).toBe(429);
      expect(await mailCount(stack, email)).toBe(1);
    } finally {
      setAuthSettings(stack.ctx.config, { rateLimits: { emailMinIntervalSeconds: 0 } });
    }
  });
});

describe('reauthentication and e-mail change', () => {
  it('mails a nonce that authorises a password change once', async () => {
    const { email, password } = await confirmedUser('reauth');
    const supabase = client(stack);
    await supabase.auth.signInWithPassword({ email, password });
    expect((await supabase.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Your Vigil verification code');
    expect(mail.links.filter((l) => l.includes('/verify'))).toEqual([]);
    const nonce = otpFrom(mail);
    const bad = await supabase.auth.updateUser({
      password: 'changed-password',
      nonce: nonce === '000000' ? '111111' : '000000',
    });
    expect(bad.error?.code).toBe('reauthentication_not_valid');
    expect((await supabase.auth.updateUser({ password: 'changed-password', nonce })).error).toBeNull();
    const replay = await supabase.auth.updateUser({ password: 'changed-again', nonce });
    expect(replay.error?.code).toBe('reauthentication_not_valid');
  });

  it('changes the e-mail address only after both the new and the current address confirm', async () => {
    const { email, password } = await confirmedUser('change');
    const next = uniqueEmail('changed');
    const supabase = client(stack);
    await supabase.auth.signInWithPassword({ email, password });
    const { data, error } = await supabase.auth.updateUser(
      { email: next },
      { emailRedirectTo: 'http://localhost:5173/settings' },
    );
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(next);
    // Secure change: the new address confirms first, then the current one completes it.
    const first = await openLink(verifyLink(await latestMail(stack, next)));
    expect(first.location.searchParams.get('message')).toMatch(/^Confirmation link accepted/);
    expect(first.location.searchParams.get('code')).toBeNull();
    expect((await supabase.auth.getUser()).data.user?.email).toBe(email);
    const current = await latestMail(stack, email, /change of your Vigil e-mail/);
    const { location } = await openLink(verifyLink(current));
    const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(next);
    expect((await client(stack).auth.signInWithPassword({ email: next, password })).error).toBeNull();
  });

  it('refuses to take an address another account holds', async () => {
    const a = await confirmedUser('holder');
    const b = await confirmedUser('taker');
    const supabase = client(stack);
    await supabase.auth.signInWithPassword({ email: b.email, password: b.password });
    const { error } = await supabase.auth.updateUser({ email: a.email });
    expect(error?.code).toBe('email_exists');
  });
});
