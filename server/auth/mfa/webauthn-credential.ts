import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';

/** What a verified WebAuthn factor keeps in auth.mfa_factors.web_authn_credential. */
export const StoredCredential = z.object({
  /** base64url credential id, as the authenticator returns it. */
  id: z.string().min(1),
  /** base64url COSE public key. */
  public_key: z.string().min(1),
  /** The signature counter last seen; an assertion must move it forward (cloned-authenticator check). */
  counter: z.number().int().min(0),
  transports: z.array(z.string()).default([]),
  aaguid: z.string().optional(),
  device_type: z.string().optional(),
  backed_up: z.boolean().optional(),
});
export type StoredCredential = z.infer<typeof StoredCredential>;

/** The challenge's session data: what was asked, so the answer is checked against exactly that. */
export const WebauthnSession = z.object({
  type: z.enum(['create', 'request']),
  challenge: z.string().min(16),
  rp_id: z.string().min(1),
});
export type WebauthnSession = z.infer<typeof WebauthnSession>;

/** The verify body's webauthn part; rpId/rpOrigins are read but never trusted. */
export const WebauthnVerifyBody = z.object({
  webauthn: z.object({
    type: z.enum(['create', 'request']),
    rpId: z.string().max(255).optional(),
    rpOrigins: z.array(z.string().max(2048)).max(20).optional(),
    credential_response: z
      .object({
        id: z.string().min(1).max(1024),
        rawId: z.string().min(1).max(1024),
        type: z.literal('public-key'),
        response: z.record(z.string(), z.unknown()),
        clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
        authenticatorAttachment: z.string().optional(),
      })
      .passthrough(),
  }),
});
export type WebauthnVerifyBody = z.infer<typeof WebauthnVerifyBody>;

/** The credentials of a user's other verified WebAuthn factors (to exclude them from a new registration). */
export async function verifiedCredentials(db: Queryable, userId: string): Promise<StoredCredential[]> {
  const { rows } = await db.query<{ web_authn_credential: unknown }>(
    `select web_authn_credential from auth.mfa_factors
      where user_id = $1 and factor_type = 'webauthn' and status = 'verified' and web_authn_credential is not null`,
    [userId],
  );
  return rows.flatMap((r) => {
    const parsed = StoredCredential.safeParse(r.web_authn_credential);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Whether a credential id is already bound to any factor (of anyone): one credential, one factor. */
export async function credentialInUse(db: Queryable, credentialId: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from auth.mfa_factors where factor_type = 'webauthn' and web_authn_credential ->> 'id' = $1 limit 1`,
    [credentialId],
  );
  return rows.length > 0;
}
