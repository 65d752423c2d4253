import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { RunningStack } from '../../../server/stack.ts';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { authFetch, uniqueEmail } from '../../helpers/auth-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** A confirmed user made through the admin API, signed in on a fresh client. */
async function signedIn(tag: string) {
  const email = uniqueEmail(tag);
  const password = 'secret-pass';
  const admin = client(stack, 'service_role');
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  expect(created.error).toBeNull();
  const supabase = client(stack);
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  if (!data.session) {
    throw new Error('no session');
  }
  return { supabase, session: data.session, email, password };
}

describe('sessions and tokens', () => {
  it('issues ES256 access tokens with GoTrue claims', async () => {
    const { session, email } = await signedIn('claims');
    expect(decodeProtectedHeader(session.access_token)).toMatchObject({
      alg: 'ES256',
      kid: stack.ctx.keys.kid,
      typ: 'JWT',
    });
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: `${stack.url}/auth/v1`,
      sub: session.user.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) as number }]);
    expect(typeof claims.session_id).toBe('string');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(session.token_type).toBe('bearer');
  });

  it('verifies tokens locally through the JWKS in getClaims()', async () => {
    const { supabase, session } = await signedIn('getclaims');
    const jwks = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
    const body = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
    expect(body.keys[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      kid: stack.ctx.keys.kid,
      key_ops: ['verify'],
    });
    expect(body.keys[0]?.d).toBeUndefined();
    const { data, error } = await supabase.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims.sub).toBe(session.user.id);
    expect(data?.header.alg).toBe('ES256');
  });

  it('rotates refresh tokens, tolerates a racing reuse, and ends the session on late reuse', async () => {
    const { supabase, session } = await signedIn('rotate');
    const first = await supabase.auth.refreshSession();
    expect(first.error).toBeNull();
    const rotated = first.data.session?.refresh_token ?? '';
    expect(rotated).not.toBe(session.refresh_token);

    // Within the reuse interval the parent still works and yields the active token (two tabs racing).
    const racing = await authFetch(stack, '/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: session.refresh_token }),
    });
    expect(racing.status).toBe(200);
    expect(((await racing.json()) as { refresh_token: string }).refresh_token).toBe(rotated);

    setAuthSettings(stack.ctx.config, { refreshReuseIntervalSeconds: 0 });
    try {
      const late = await authFetch(stack, '/token?grant_type=refresh_token', {
        method: 'POST',
        body: JSON.stringify({ refresh_token: session.refresh_token }),
      });
      expect(late.status).toBe(400);
      expect(await late.json()).toMatchObject({
        code: 'refresh_token_already_used',
        msg: 'Invalid Refresh Token: Already Used',
      });
      // The leak ends the whole session: the legitimate holder's newest token is dead too.
      const victim = await supabase.auth.refreshSession({ refresh_token: rotated });
      expect(victim.error?.status).toBe(400);
      const user = await authFetch(stack, '/user', { bearer: first.data.session?.access_token });
      expect(user.status).toBe(403);
      const { rows } = await stack.ctx.db.query<{ action: string }>(
        `select payload->>'action' as action from auth.audit_log_entries where payload->>'actor_id' = $1 order by created_at`,
        [session.user.id],
      );
      expect(rows.map((r) => r.action)).toEqual(['login', 'token_revoked']);
    } finally {
      setAuthSettings(stack.ctx.config, { refreshReuseIntervalSeconds: 10 });
    }
  });

  it('signOut revokes the session: the refresh token fails and the access token gets session_not_found', async () => {
    const { supabase, session } = await signedIn('signout');
    expect((await supabase.auth.signOut()).error).toBeNull();
    const refresh = await client(stack).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error?.code).toBe('refresh_token_not_found');
    const res = await authFetch(stack, '/user', { bearer: session.access_token });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await res.json()).toMatchObject({ code: 'session_not_found' });
    const viaClient = await client(stack).auth.getUser(session.access_token);
    expect(viaClient.error?.name).toBe('AuthSessionMissingError');
  });

  it('honours logout scopes local and others', async () => {
    const { email, password, session: a } = await signedIn('scopes');
    const second = client(stack);
    const b = (await second.auth.signInWithPassword({ email, password })).data.session;
    const third = client(stack);
    const c = (await third.auth.signInWithPassword({ email, password })).data.session;
    const others = await authFetch(stack, '/logout?scope=others', { method: 'POST', bearer: a.access_token });
    expect(others.status).toBe(204);
    expect((await authFetch(stack, '/user', { bearer: a.access_token })).status).toBe(200);
    expect((await authFetch(stack, '/user', { bearer: b?.access_token })).status).toBe(403);
    expect((await authFetch(stack, '/user', { bearer: c?.access_token })).status).toBe(403);
    const local = await authFetch(stack, '/logout?scope=local', { method: 'POST', bearer: a.access_token });
    expect(local.status).toBe(204);
    expect((await authFetch(stack, '/user', { bearer: a.access_token })).status).toBe(403);
    const bad = await authFetch(stack, '/logout?scope=everyone', { method: 'POST', bearer: a.access_token });
    expect(bad.status).toBe(400);
  });

  it('returns the user with identities always and factors only when present', async () => {
    const { supabase } = await signedIn('getuser');
    const res = await authFetch(stack, '/user', {
      bearer: (await supabase.auth.getSession()).data.session?.access_token,
    });
    const user = (await res.json()) as Record<string, unknown>;
    expect(Array.isArray(user.identities)).toBe(true);
    expect(user).not.toHaveProperty('factors');
    expect(user.email_confirmed_at).toBeTruthy();
    const updated = await supabase.auth.updateUser({ data: { plan: 'pro', theme: 'dark' } });
    expect(updated.data.user?.user_metadata).toMatchObject({ plan: 'pro', theme: 'dark' });
    const removed = await supabase.auth.updateUser({ data: { theme: null } });
    expect(removed.data.user?.user_metadata).not.toHaveProperty('theme');
  });

  it('serves settings and health without an API key', async () => {
    const settings = await fetch(`${stack.url}/auth/v1/settings`);
    expect(await settings.json()).toMatchObject({ external: { email: true }, mailer_autoconfirm: false });
    expect((await fetch(`${stack.url}/auth/v1/health`)).status).toBe(200);
  });
});

describe('autoconfirm stacks', () => {
  let auto: RunningStack;
  beforeAll(async () => {
    auto = await startTestStack({ autoconfirm: true });
  });
  afterAll(() => auto.close());

  it('return a session from signUp and refuse a second sign-up of the address', async () => {
    const email = uniqueEmail('auto');
    const first = await client(auto).auth.signUp({ email, password: 'secret-pass' });
    expect(first.error).toBeNull();
    expect(first.data.session?.access_token).toMatch(/^eyJ/);
    const again = await client(auto).auth.signUp({ email, password: 'secret-pass' });
    expect(again.error?.code).toBe('user_already_exists');
    expect(again.error?.status).toBe(422);
  });
});
