import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import type { RunningStack } from '../../../server/stack.ts';
import { codeChallengeFor } from '../../../server/auth/pkce.ts';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { authFetch, latestMail, openLink, uniqueEmail, verifyLink } from '../../helpers/auth-support.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** Every refusal must be a GoTrue-shaped 4xx, never a 500. */
async function expectAuthError(res: Response, status: number, code: string) {
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  expect(body.error_code).toBe(code);
  expect(typeof body.msg).toBe('string');
  expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
}

const post = (path: string, body: string, bearer?: string) =>
  authFetch(stack, path, { method: 'POST', body, bearer });

describe('hostile and malformed requests', () => {
  it('rejects malformed JSON, non-objects and wrong types', async () => {
    await expectAuthError(await post('/signup', '{"email":'), 400, 'bad_json');
    await expectAuthError(await post('/token?grant_type=password', '[1,2]'), 400, 'bad_json');
    await expectAuthError(await post('/token?grant_type=password', '"text"'), 400, 'bad_json');
    await expectAuthError(
      await post('/signup', JSON.stringify({ email: 123, password: true })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/signup', JSON.stringify({ email: 'not-an-email', password: 'secret-pass' })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/signup', JSON.stringify({ email: uniqueEmail('nopw') })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/signup', JSON.stringify({ email: uniqueEmail('short'), password: '12345' })),
      422,
      'weak_password',
    );
    await expectAuthError(await post('/token?grant_type=password', '{}'), 400, 'validation_failed');
    await expectAuthError(
      await post('/signup', JSON.stringify({ email: uniqueEmail('long'), password: 'x'.repeat(73) })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/token?grant_type=password', JSON.stringify({ email: 'x@y.z', password: { $ne: 1 } })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/token?grant_type=refresh_token', JSON.stringify({ refresh_token: '' })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/token?grant_type=refresh_token', JSON.stringify({ refresh_token: "x' or 1=1 --" })),
      400,
      'refresh_token_not_found',
    );
    await expectAuthError(
      await post('/verify', JSON.stringify({ type: 'bogus', token_hash: 'x' })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/verify', JSON.stringify({ type: 'signup', token_hash: 'abc', email: 'a@b.c' })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/verify', JSON.stringify({ type: 'signup', token_hash: 'nope' })),
      403,
      'otp_expired',
    );
    await expectAuthError(
      await post('/recover', JSON.stringify({ email: ['a@b.c'] })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post('/resend', JSON.stringify({ type: 'carrier-pigeon', email: 'a@b.c' })),
      400,
      'validation_failed',
    );
  });

  it('refuses oversized bodies', async () => {
    const huge = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(100 * 1024) });
    const res = await post('/signup', huge);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      code: 'request_entity_too_large',
      msg: 'Request body too large (max 65536 bytes)',
    });
  });

  it('answers unknown grant types and paths in GoTrue shape', async () => {
    // GoTrue: 400 invalid_credentials "unsupported_grant_type"; its router's plain 404 for unknown paths.
    await expectAuthError(
      await post('/token?grant_type=client_credentials', '{}'),
      400,
      'invalid_credentials',
    );
    await expectAuthError(await post('/token', '{}'), 400, 'invalid_credentials');
    const unknown = await authFetch(stack, '/no-such-endpoint');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('404 page not found\n');
  });

  it('checks the PKCE exchange: unknown code 404, wrong verifier 400, expired 422', async () => {
    await expectAuthError(
      await post(
        '/token?grant_type=pkce',
        JSON.stringify({ auth_code: 'nope', code_verifier: 'a'.repeat(64) }),
      ),
      404,
      'flow_state_not_found',
    );
    await expectAuthError(
      await post('/token?grant_type=pkce', JSON.stringify({ auth_code: 'nope' })),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post(
        '/signup',
        JSON.stringify({
          email: uniqueEmail('half'),
          password: 'secret-pass',
          code_challenge: 'a'.repeat(43),
        }),
      ),
      400,
      'validation_failed',
    );
    await expectAuthError(
      await post(
        '/signup',
        JSON.stringify({
          email: uniqueEmail('tiny'),
          password: 'secret-pass',
          code_challenge: 'abc',
          code_challenge_method: 's256',
        }),
      ),
      400,
      'validation_failed',
    );

    const verifier = 'f'.repeat(112);
    const email = uniqueEmail('pkce');
    const signup = await post(
      '/signup',
      JSON.stringify({
        email,
        password: 'secret-pass',
        code_challenge: codeChallengeFor(verifier, 's256'),
        code_challenge_method: 's256',
      }),
    );
    expect(signup.status).toBe(200);
    const code =
      (await openLink(verifyLink(await latestMail(stack, email)))).location.searchParams.get('code') ?? '';
    await expectAuthError(
      await post(
        '/token?grant_type=pkce',
        JSON.stringify({ auth_code: code, code_verifier: 'e'.repeat(112) }),
      ),
      400,
      'bad_code_verifier',
    );
    setAuthSettings(stack.ctx.config, { flowStateExpirySeconds: 0 });
    try {
      await expectAuthError(
        await post('/token?grant_type=pkce', JSON.stringify({ auth_code: code, code_verifier: verifier })),
        422,
        'flow_state_expired',
      );
    } finally {
      setAuthSettings(stack.ctx.config, { flowStateExpirySeconds: 300 });
    }
  });

  it('refuses forged, expired, foreign-key and non-user JWTs', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({
      role: 'authenticated',
      sub: crypto.randomUUID(),
      session_id: crypto.randomUUID(),
    })
      .setProtectedHeader({ alg: 'ES256', kid: stack.ctx.keys.kid })
      .setExpirationTime('1h')
      .sign(privateKey);
    await expectAuthError(await authFetch(stack, '/user', { bearer: forged }), 403, 'bad_jwt');
    const hs = await new SignJWT({ role: 'authenticated', sub: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters-long'));
    await expectAuthError(await authFetch(stack, '/user', { bearer: hs }), 403, 'bad_jwt');
    const expired = await stack.ctx.keys.sign(
      { role: 'authenticated', sub: crypto.randomUUID(), session_id: crypto.randomUUID() },
      -60,
    );
    await expectAuthError(await authFetch(stack, '/user', { bearer: expired }), 403, 'bad_jwt');
    await expectAuthError(await authFetch(stack, '/user', { bearer: 'not.a.jwt' }), 403, 'bad_jwt');
    const ghost = await stack.ctx.keys.sign(
      {
        role: 'authenticated',
        aud: 'authenticated',
        sub: crypto.randomUUID(),
        session_id: crypto.randomUUID(),
      },
      60,
    );
    await expectAuthError(await authFetch(stack, '/user', { bearer: ghost }), 403, 'session_not_found');
    await expectAuthError(await authFetch(stack, '/user'), 401, 'no_authorization');
    await expectAuthError(
      await authFetch(stack, '/user', { bearer: stack.status.service_role_key }),
      403,
      'bad_jwt',
    );
    await expectAuthError(await fetch(`${stack.url}/auth/v1/user`), 401, 'no_api_key');
    await expectAuthError(
      await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: forged } }),
      401,
      'invalid_api_key',
    );
  });

  it('turns bad e-mail links into error redirects, not pages or 500s', async () => {
    const garbage = await openLink(
      `${stack.url}/auth/v1/verify?token=pkce_deadbeef&type=signup&redirect_to=http://localhost:5173/cb`,
    );
    expect(garbage.status).toBe(303);
    expect(garbage.location.searchParams.get('error_code')).toBe('otp_expired');
    expect(garbage.location.hash).toContain('error_description=Email+link+is+invalid+or+has+expired');
    const noType = await openLink(`${stack.url}/auth/v1/verify?token=abc&redirect_to=https://evil.example/`);
    expect(noType.location.origin).toBe(stack.ctx.config.siteUrl);
    expect(noType.location.hash).toContain('error_code=validation_failed');
  });

  it('answers malformed ids on factors and admin routes with 404', async () => {
    const admin = await authFetch(stack, '/admin/users/not-a-uuid', {
      headers: { apikey: stack.status.service_role_key },
      bearer: stack.status.service_role_key,
    });
    // GoTrue refuses an id that is no UUID before looking it up.
    await expectAuthError(admin, 404, 'validation_failed');
    const page = await authFetch(stack, '/admin/users?page=-1', {
      headers: { apikey: stack.status.service_role_key },
      bearer: stack.status.service_role_key,
    });
    await expectAuthError(page, 400, 'validation_failed');
    const email = uniqueEmail('factor');
    await client(stack, 'service_role').auth.admin.createUser({
      email,
      password: 'secret-pass',
      email_confirm: true,
    });
    const session = (await client(stack).auth.signInWithPassword({ email, password: 'secret-pass' })).data
      .session;
    await expectAuthError(
      await post('/factors/not-a-uuid/challenge', '{}', session?.access_token),
      404,
      'mfa_factor_not_found',
    );
    await expectAuthError(
      await post('/factors', JSON.stringify({ factor_type: 'sms-pigeon' }), session?.access_token),
      400,
      'validation_failed',
    );
  });
});

describe('rate limits', () => {
  let limited: RunningStack;
  beforeAll(async () => {
    limited = await startTestStack();
    setAuthSettings(limited.ctx.config, {
      rateLimits: { signInSignUps: 3, tokenRefresh: 2 },
    });
  });
  afterAll(() => limited.close());

  it('answers over_request_rate_limit 429 on sign-ins and sign-ups past the per-IP limit', async () => {
    const supabase = client(limited);
    const results = [];
    for (let i = 0; i < 4; i += 1) {
      results.push(
        (await supabase.auth.signInWithPassword({ email: 'nobody@example.com', password: 'wrong-pass' }))
          .error,
      );
    }
    expect(results.slice(0, 3).map((e) => e?.code)).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
    ]);
    expect(results[3]?.code).toBe('over_request_rate_limit');
    expect(results[3]?.status).toBe(429);
    const signup = await supabase.auth.signUp({ email: uniqueEmail('limited'), password: 'secret-pass' });
    expect(signup.error?.code).toBe('over_request_rate_limit');
  });

  it('counts refreshes separately', async () => {
    const codes = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${limited.url}/auth/v1/token?grant_type=refresh_token`, {
        method: 'POST',
        headers: { apikey: limited.status.anon_key, 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: 'unknown' }),
      });
      codes.push(((await res.json()) as { code: string }).code);
    }
    expect(codes).toEqual(['refresh_token_not_found', 'refresh_token_not_found', 'over_request_rate_limit']);
  });
});
