import { z } from 'zod';
import { requireEnv } from '../_shared/env.ts';
import { HttpError } from '../_shared/http.ts';

/**
 * The caller's own calls to the auth server's MFA endpoints (GoTrue's /factors), made with the caller's
 * access token: the auth server decides who may enrol or verify, exactly as for supabase-js in the page.
 */
async function factorsCall<T>(token: string, path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
  const res = await fetch(`${requireEnv('SUPABASE_URL')}/auth/v1${path}`, {
    method: 'POST',
    headers: {
      apikey: requireEnv('SUPABASE_ANON_KEY'),
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
    },
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) {
    // The auth server's refusal (insufficient_aal, mfa_verification_failed, …) is the caller's to see.
    const text = data?.message ?? data?.msg;
    const message = typeof text === 'string' ? text : `auth server answered ${res.status}`;
    throw new HttpError(res.status >= 500 ? 502 : res.status === 401 ? 401 : 400, message, {
      code: data?.code,
    });
  }
  return schema.parse(data);
}

const Enrolled = z.object({ id: z.string().uuid() });
const CreateChallenge = z.object({
  id: z.string().uuid(),
  expires_at: z.number(),
  webauthn: z.object({
    type: z.literal('create'),
    credential_options: z.object({
      publicKey: z
        .object({ challenge: z.string().min(22), rp: z.object({ id: z.string() }).passthrough() })
        .passthrough(),
    }),
  }),
});
const Session = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    expires_in: z.number(),
    expires_at: z.number().optional(),
  })
  .passthrough();

export const enrolWebauthn = (token: string, friendlyName: string) =>
  factorsCall(token, '/factors', { factor_type: 'webauthn', friendly_name: friendlyName }, Enrolled);

export const createChallenge = (token: string, factorId: string, rpId: string, origins: string[]) =>
  factorsCall(
    token,
    `/factors/${factorId}/challenge`,
    { webauthn: { rpId, rpOrigins: origins } },
    CreateChallenge,
  );

export const verifyCreate = (
  token: string,
  factorId: string,
  challengeId: string,
  rpId: string,
  origin: string,
  credential: unknown,
) =>
  factorsCall(
    token,
    `/factors/${factorId}/verify`,
    {
      challenge_id: challengeId,
      webauthn: { type: 'create', rpId, rpOrigins: [origin], credential_response: credential },
    },
    Session,
  );
