import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { anonymousSignInsFromToml, CONFIG_TOML, setAuthSettings } from '../../../server/auth/settings.ts';
import { reloadSchemaCache } from '../../../server/rest/schema-cache.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { latestMail, openLink, uniqueEmail, verifyLink } from '../../helpers/auth-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
  // A table whose policies tell anonymous users from permanent ones by the token's is_anonymous claim.
  await stack.ctx.db.exec(`
    create table if not exists public.anon_probe (id int primary key, note text);
    alter table public.anon_probe enable row level security;
    drop policy if exists permanent_only on public.anon_probe;
    create policy permanent_only on public.anon_probe for select to authenticated
      using (not coalesce((auth.jwt()->>'is_anonymous')::boolean, false));
    insert into public.anon_probe values (1, 'for permanent users') on conflict do nothing;
  `);
  await reloadSchemaCache(stack.ctx.db);
});
afterAll(async () => {
  await stack.ctx.db.exec('drop table if exists public.anon_probe');
  await stack.close();
});

describe('anonymous sign-ins', () => {
  it("are off unless supabase/config.toml switches them on, answering GoTrue's 422", async () => {
    expect(anonymousSignInsFromToml(CONFIG_TOML)).toBe(false);
    setAuthSettings(stack.ctx.config, { anonymousSignIns: false });
    const { data, error } = await client(stack).auth.signInAnonymously();
    expect(data.session).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('anonymous_provider_disabled');
    expect(error?.message).toBe('Anonymous sign-ins are disabled');
    const settings = await fetch(`${stack.url}/auth/v1/settings`);
    expect(((await settings.json()) as { external: Record<string, boolean> }).external.anonymous_users).toBe(
      false,
    );
  });

  it('once on, sign in a user with no address whose token says is_anonymous, seen by row-level security', async () => {
    setAuthSettings(stack.ctx.config, { anonymousSignIns: true });
    const supabase = client(stack);
    const { data, error } = await supabase.auth.signInAnonymously({ options: { data: { theme: 'dark' } } });
    expect(error).toBeNull();
    const user = data.user!;
    expect(user.is_anonymous).toBe(true);
    expect(user.email).toBe('');
    expect(user.user_metadata).toEqual({ theme: 'dark' });
    expect(user.app_metadata).toEqual({ provider: 'anonymous', providers: ['anonymous'] });
    expect(user.identities).toEqual([]);
    const claims = decodeJwt(data.session!.access_token);
    expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated', sub: user.id });
    expect(claims.amr).toEqual([expect.objectContaining({ method: 'anonymous' })]);
    // The policy admits permanent users only: the anonymous one sees nothing.
    const probe = await supabase.from('anon_probe' as never).select('note');
    expect(probe.error).toBeNull();
    expect(probe.data).toEqual([]);
  });

  it('refuses factors and a password without an address, and reauthentication without one', async () => {
    setAuthSettings(stack.ctx.config, { anonymousSignIns: true });
    const supabase = client(stack);
    await supabase.auth.signInAnonymously();
    const enroll = await supabase.auth.mfa.enroll({ factorType: 'totp' });
    expect(enroll.error?.status).toBe(403);
    expect(enroll.error?.message).toBe('Anonymous user not allowed to perform these actions');
    const password = await supabase.auth.updateUser({ password: 'secret-pass' });
    expect(password.error?.status).toBe(422);
    expect(password.error?.message).toBe(
      'Updating password of an anonymous user without an email or phone is not allowed',
    );
    const reauth = await supabase.auth.reauthenticate();
    expect(reauth.error?.status).toBe(400);
    expect(reauth.error?.message).toBe(
      'Reauthentication requires the user to have an email or a phone number',
    );
  });

  it('becomes a permanent e-mail user by confirming an address, and row-level security sees it', async () => {
    setAuthSettings(stack.ctx.config, { anonymousSignIns: true });
    const supabase = client(stack);
    const { data } = await supabase.auth.signInAnonymously();
    const email = uniqueEmail('converted');
    const changed = await supabase.auth.updateUser({ email });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.new_email).toBe(email);
    const { location } = await openLink(verifyLink(await latestMail(stack, email)));
    const code = location.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await supabase.auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    const user = exchanged.data.user!;
    expect(user.id).toBe(data.user!.id);
    expect(user.is_anonymous).toBe(false);
    expect(user.email).toBe(email);
    expect(user.identities?.map((i) => i.provider)).toEqual(['email']);
    expect(decodeJwt(exchanged.data.session!.access_token).is_anonymous).toBe(false);
    const probe = await supabase.from('anon_probe' as never).select('note');
    expect(probe.data).toEqual([{ note: 'for permanent users' }]);
  });
});
