import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../server/stack.ts';
import { client, startTestStack } from '../helpers/stack.ts';
import { authFetch, openLink, uniqueEmail } from './auth-support.ts';

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
});
