import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { authFetch, uniqueEmail } from '../../helpers/auth-support.ts';

// Each feature Vigil does not offer answers as GoTrue does with it switched off: status, error_code, message.
let stack: RunningStack;
let userToken: string;
beforeAll(async () => {
  stack = await startTestStack();
  const email = uniqueEmail('plain');
  await client(stack, 'service_role').auth.admin.createUser({
    email,
    password: 'secret-pass',
    email_confirm: true,
  });
  const { data } = await client(stack).auth.signInWithPassword({ email, password: 'secret-pass' });
  userToken = data.session!.access_token;
});
afterAll(() => stack.close());

async function expectGoTrue(res: Response, status: number, code: string, msg: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(await res.json()).toMatchObject({ code, error_code: code, msg });
}

const service = () => ({
  bearer: stack.status.service_role_key,
  headers: { apikey: stack.status.service_role_key },
});
const post = (path: string, body: unknown, init: Parameters<typeof authFetch>[2] = {}) =>
  authFetch(stack, path, { ...init, method: 'POST', body: JSON.stringify(body) });

describe('features not offered', () => {
  it('SAML single sign-on: 404 saml_provider_disabled', async () => {
    const { error } = await client(stack).auth.signInWithSSO({ domain: 'example.com' });
    expect(error?.status).toBe(404);
    expect(error?.code).toBe('saml_provider_disabled');
    expect(error?.message).toBe('SAML 2.0 is disabled');
    await expectGoTrue(
      await authFetch(stack, '/sso/saml/metadata'),
      404,
      'saml_provider_disabled',
      'SAML 2.0 is disabled',
    );
  });

  it('the OAuth 2.1 server: 404 feature_disabled, after the admin check on admin routes', async () => {
    const { error } = await client(stack, 'service_role').auth.admin.oauth.listClients();
    expect(error?.status).toBe(404);
    expect(error?.message).toBe('OAuth server is disabled');
    const anon = await client(stack).auth.admin.oauth.listClients();
    expect(anon.error?.code).toBe('not_admin');
    await expectGoTrue(
      await post('/oauth/clients/register', {}),
      404,
      'feature_disabled',
      'OAuth server is disabled',
    );
    await expectGoTrue(
      await authFetch(stack, '/admin/custom-providers', service()),
      404,
      'feature_disabled',
      'Custom OAuth providers are disabled',
    );
  });

  it('identity linking: 404 manual_linking_disabled once signed in', async () => {
    const linked = await authFetch(stack, '/user/identities/authorize?provider=github', {
      bearer: userToken,
    });
    await expectGoTrue(linked, 404, 'manual_linking_disabled', 'Manual linking is disabled');
    const unlinked = await authFetch(stack, `/user/identities/${crypto.randomUUID()}`, {
      method: 'DELETE',
      bearer: userToken,
    });
    await expectGoTrue(unlinked, 404, 'manual_linking_disabled', 'Manual linking is disabled');
    const anonymous = await authFetch(stack, '/user/identities/authorize?provider=github');
    expect(anonymous.status).toBe(401);
  });

  it('passkeys: 404 passkey_disabled', async () => {
    await expectGoTrue(
      await post('/passkeys/authentication/options', {}),
      404,
      'passkey_disabled',
      'Passkeys are disabled',
    );
  });

  it('OAuth, ID-token and Web3 sign-in: every provider off', async () => {
    const github = await fetch(`${stack.url}/auth/v1/authorize?provider=github`, { redirect: 'manual' });
    await expectGoTrue(github, 400, 'validation_failed', 'Unsupported provider: provider is not enabled');
    const unknown = await fetch(`${stack.url}/auth/v1/authorize?provider=nope`, { redirect: 'manual' });
    await expectGoTrue(
      unknown,
      400,
      'validation_failed',
      'Unsupported provider: Provider nope could not be found',
    );
    const google = await client(stack).auth.signInWithIdToken({ provider: 'google', token: 'a.b.c' });
    expect(google.error?.code).toBe('provider_disabled');
    expect(google.error?.message).toBe('Provider (issuer "https://accounts.google.com") is not enabled');
    const custom = await post('/token?grant_type=id_token', { provider: 'custom:corp', id_token: 'x' });
    await expectGoTrue(custom, 400, 'validation_failed', 'Custom OAuth providers are disabled');
    const other = await post('/token?grant_type=id_token', { provider: 'corp', id_token: 'x' });
    await expectGoTrue(other, 400, 'validation_failed', 'Custom OIDC provider "corp" not allowed');
    const missing = await post('/token?grant_type=id_token', { provider: 'google' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: 'invalid request',
      error_description: 'id_token required',
    });
    const web3 = await post('/token?grant_type=web3', { chain: 'solana', message: 'm', signature: 's' });
    await expectGoTrue(web3, 422, 'web3_provider_disabled', 'Web3 provider is disabled');
  });

  it('phone sign-in: the phone provider off, and no user has a phone number', async () => {
    const auth = client(stack).auth;
    const verify = await auth.verifyOtp({ phone: '15551234567', token: '123456', type: 'sms' });
    expect(verify.error?.status).toBe(403);
    expect(verify.error?.code).toBe('otp_expired');
    const change = await auth.verifyOtp({ phone: '+1 555 123 4567', token: '123456', type: 'phone_change' });
    expect(change.error?.message).toBe('Token has expired or is invalid');
    const invalid = await auth.verifyOtp({ phone: 'not-a-number', token: '123456', type: 'sms' });
    expect(invalid.error?.status).toBe(400);
    expect(invalid.error?.message).toBe('Invalid phone number format (E.164 required)');
    const otp = await auth.signInWithOtp({ phone: '15551234567' });
    expect([otp.error?.status, otp.error?.code, otp.error?.message]).toEqual([
      400,
      'phone_provider_disabled',
      'Unsupported phone provider',
    ]);
    const password = await auth.signInWithPassword({ phone: '15551234567', password: 'secret-pass' });
    expect([password.error?.status, password.error?.message]).toEqual([422, 'Phone logins are disabled']);
    const signUp = await auth.signUp({ phone: '15551234567', password: 'secret-pass' });
    expect([signUp.error?.status, signUp.error?.message]).toEqual([400, 'Phone signups are disabled']);
    const resend = await auth.resend({ type: 'sms', phone: '15551234567' });
    expect([resend.error?.status, resend.error?.message]).toEqual([400, 'Phone logins are disabled']);
  });
});
