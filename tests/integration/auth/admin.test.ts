import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { authFetch, latestMail, openLink, uniqueEmail, verifyLink } from '../../helpers/auth-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('admin API (service role)', () => {
  it('creates, lists, reads, updates and deletes users', async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const email = uniqueEmail('admin');
    const created = await admin.createUser({
      email,
      password: 'secret-pass',
      email_confirm: true,
      user_metadata: { team: 'red' },
      app_metadata: { plan: 'pro' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user?.id ?? '';
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect(created.data.user?.app_metadata).toMatchObject({ provider: 'email', plan: 'pro' });

    const listed = await admin.listUsers({ page: 1, perPage: 50 });
    expect(listed.error).toBeNull();
    expect(listed.data.users.map((u) => u.email)).toContain(email);
    expect((listed.data as { total?: number }).total).toBeGreaterThanOrEqual(1);

    expect((await admin.getUserById(id)).data.user?.email).toBe(email);
    const updated = await admin.updateUserById(id, {
      user_metadata: { team: 'blue' },
      password: 'another-pass',
    });
    expect(updated.data.user?.user_metadata.team).toBe('blue');
    expect(
      (await client(stack).auth.signInWithPassword({ email, password: 'another-pass' })).error,
    ).toBeNull();

    const banned = await admin.updateUserById(id, { ban_duration: '24h' });
    expect(banned.data.user?.banned_until).toBeTruthy();
    expect(
      (await client(stack).auth.signInWithPassword({ email, password: 'another-pass' })).error?.code,
    ).toBe('user_banned');

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error?.status).toBe(404);
    const dupe = await admin.createUser({ email: uniqueEmail('x'), password: 'abc' });
    expect(dupe.error?.code).toBe('weak_password');
  });

  it('refuses the anon key and signed-in users', async () => {
    const anon = await client(stack).auth.admin.listUsers();
    expect(anon.error?.status).toBe(403);
    expect(anon.error?.code).toBe('not_admin');
    const admin = client(stack, 'service_role').auth.admin;
    const email = uniqueEmail('plain');
    await admin.createUser({ email, password: 'secret-pass', email_confirm: true });
    const user = client(stack);
    const session = (await user.auth.signInWithPassword({ email, password: 'secret-pass' })).data.session;
    const res = await authFetch(stack, '/admin/users', { bearer: session?.access_token });
    expect(res.status).toBe(403);
    const create = await authFetch(stack, '/admin/users', {
      method: 'POST',
      body: JSON.stringify({ email: uniqueEmail('sneaky'), password: 'secret-pass' }),
    });
    expect(create.status).toBe(403);
  });

  it('generates working links without sending mail', async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const email = uniqueEmail('genlink');
    const { data, error } = await admin.generateLink({
      type: 'signup',
      email,
      password: 'secret-pass',
      options: { redirectTo: 'http://localhost:5173/welcome' },
    });
    expect(error).toBeNull();
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    const { location } = await openLink(data.properties?.action_link ?? '');
    expect(location.origin + location.pathname).toBe('http://localhost:5173/welcome');
    expect(new URLSearchParams(location.hash.slice(1)).get('access_token')).toMatch(/^eyJ/);
  });

  it('keeps exactly the metadata it is given; confirming adds email_verified, as GoTrue does', async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const plain = await admin.createUser({ email: uniqueEmail('meta'), user_metadata: { team: 'red' } });
    expect(plain.data.user?.user_metadata).toEqual({ team: 'red' });
    // The identity still carries GoTrue's claims of the address.
    expect(plain.data.user?.identities?.[0]?.identity_data).toMatchObject({
      email_verified: false,
      phone_verified: false,
    });
    const confirmed = await admin.createUser({ email: uniqueEmail('meta'), email_confirm: true });
    expect(confirmed.data.user?.user_metadata).toEqual({ email_verified: true });
    const id = plain.data.user?.id ?? '';
    const updated = await admin.updateUserById(id, { user_metadata: { seat: 3 } });
    expect(updated.data.user?.user_metadata).toEqual({ team: 'red', seat: 3 });
  });

  it("answers GoTrue's errors for ids that are no UUID and addresses that are not e-mail", async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const service = stack.status.service_role_key;
    const bad = await authFetch(stack, '/admin/users/not-a-uuid', {
      bearer: service,
      headers: { apikey: service },
    });
    expect(bad.status).toBe(404);
    expect(await bad.json()).toMatchObject({ code: 'validation_failed', msg: 'user_id must be an UUID' });
    const invalid = await admin.createUser({ email: 'not an address' });
    expect(invalid.error?.message).toBe('Unable to validate email address: invalid format');
    const none = await admin.createUser({ user_metadata: {} });
    expect(none.error?.message).toBe('Cannot create a user without either an email or phone');
  });

  it('creates phone users as GoTrue does, whatever the phone provider (off here)', async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const phone = `1555${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    const created = await admin.createUser({ phone: `+${phone}`, phone_confirm: true });
    expect(created.error).toBeNull();
    expect(created.data.user?.phone).toBe(phone);
    expect(created.data.user?.phone_confirmed_at).toBeTruthy();
    expect(created.data.user?.app_metadata).toEqual({ provider: 'phone', providers: ['phone'] });
    expect(created.data.user?.identities?.map((i) => i.provider)).toEqual(['phone']);
    const again = await admin.createUser({ phone });
    expect([again.error?.status, again.error?.code]).toEqual([422, 'phone_exists']);
    const invalid = await admin.createUser({ phone: 'call me' });
    expect(invalid.error?.message).toBe('Invalid phone number format (E.164 required)');
  });

  it('invites by e-mail: a new unconfirmed user, an invitation whose link signs in', async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const email = uniqueEmail('invite');
    const { data, error } = await admin.inviteUserByEmail(email, {
      data: { role: 'analyst' },
      redirectTo: 'http://localhost:5173/welcome',
    });
    expect(error).toBeNull();
    expect(data.user?.invited_at).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.user_metadata).toEqual({ role: 'analyst' });
    const mail = await latestMail(stack, email, /invited/i);
    const { location } = await openLink(verifyLink(mail));
    expect(location.origin + location.pathname).toBe('http://localhost:5173/welcome');
    expect(new URLSearchParams(location.hash.slice(1)).get('type')).toBe('invite');
    // Once confirmed, the address cannot be invited again.
    const again = await admin.inviteUserByEmail(email);
    expect(again.error?.status).toBe(422);
    expect(again.error?.code).toBe('email_exists');
    const invalid = await admin.inviteUserByEmail('nope');
    expect(invalid.error?.message).toBe('Unable to validate email address: invalid format');
    const anon = await client(stack).auth.admin.inviteUserByEmail(uniqueEmail('x'));
    expect(anon.error?.code).toBe('not_admin');
  });

  it("lists, renames and deletes a user's factors", async () => {
    const admin = client(stack, 'service_role').auth.admin;
    const email = uniqueEmail('factors');
    await admin.createUser({ email, password: 'secret-pass', email_confirm: true });
    const user = client(stack);
    await user.auth.signInWithPassword({ email, password: 'secret-pass' });
    const enrolled = await user.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
    expect(enrolled.error).toBeNull();
    const userId = (await user.auth.getUser()).data.user?.id ?? '';
    const listed = await admin.mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors.map((f) => [f.friendly_name, f.factor_type, f.status])).toEqual([
      ['phone app', 'totp', 'unverified'],
    ]);
    const factorId = listed.data?.factors[0]?.id ?? '';
    const service = stack.status.service_role_key;
    const renamed = await authFetch(stack, `/admin/users/${userId}/factors/${factorId}`, {
      bearer: service,
      headers: { apikey: service },
      method: 'PUT',
      body: JSON.stringify({ friendly_name: 'laptop' }),
    });
    expect(await renamed.json()).toMatchObject({ id: factorId, friendly_name: 'laptop' });
    const deleted = await admin.mfa.deleteFactor({ userId, id: factorId });
    expect(deleted.error).toBeNull();
    // auth-js hands back the body (the deleted factor) under `data`.
    expect((deleted.data as unknown as { data: { id: string } }).data.id).toBe(factorId);
    expect((await admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);
    const gone = await admin.mfa.deleteFactor({ userId, id: factorId });
    expect(gone.error?.code).toBe('mfa_factor_not_found');
    const nobody = await admin.mfa.listFactors({ userId: crypto.randomUUID() });
    expect(nobody.error?.code).toBe('user_not_found');
  });

  it('generates every link type as GoTrue does', async () => {
    const admin = client(stack, 'service_role').auth.admin;
    // A magic link for an unknown address is a signup link, with exactly the metadata given.
    const fresh = uniqueEmail('magic');
    const magic = await admin.generateLink({ type: 'magiclink', email: fresh, options: { data: { n: 1 } } });
    expect(magic.error).toBeNull();
    expect(magic.data.properties?.verification_type).toBe('signup');
    const invite = await admin.generateLink({ type: 'invite', email: uniqueEmail('inv') });
    expect(invite.data.user?.invited_at).toBeTruthy();
    expect(invite.data.properties?.action_link).toMatch(/type=invite/);
    const email = uniqueEmail('change');
    await admin.createUser({ email, password: 'secret-pass', email_confirm: true });
    const newEmail = uniqueEmail('changed');
    for (const type of ['email_change_current', 'email_change_new'] as const) {
      const change = await admin.generateLink({ type, email, newEmail });
      expect(change.error).toBeNull();
      expect(change.data.user?.new_email).toBe(newEmail);
      expect(change.data.properties?.verification_type).toBe(type);
      expect(change.data.properties?.action_link).toMatch(/type=email_change/);
    }
    const recovery = await admin.generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    expect(recovery.error?.status).toBe(404);
    expect(recovery.error?.message).toBe('User with this email not found');
    const taken = await admin.generateLink({ type: 'signup', email, password: 'secret-pass' });
    expect(taken.error?.code).toBe('email_exists');
  });
});
