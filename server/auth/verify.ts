import type { Queryable } from '../db/database.ts';
import { authError, Errors } from './errors.ts';
import { deleteToken, findToken, tokenHash, type OneTimeTokenType } from './one-time-tokens.ts';
import type { FlowMethod } from './pkce.ts';
import type { AmrMethod } from './sessions.ts';
import { confirmEmail, findUserByEmail, findUserById, type UserRow } from './users.ts';

export type EmailVerifyType = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'email';

const TOKEN_TYPES: Record<EmailVerifyType, readonly OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  recovery: ['recovery_token', 'confirmation_token'],
  magiclink: ['recovery_token', 'confirmation_token'],
  email: ['confirmation_token', 'recovery_token'],
  email_change: ['email_change_token_new', 'email_change_token_current'],
};

/** The amr method and PKCE flow kind each verification type ends in. */
export const VERIFY_AMR: Record<EmailVerifyType, AmrMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
  email: 'otp',
};
export const VERIFY_FLOW: Record<EmailVerifyType, FlowMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
  email: 'otp',
};

export interface Verified {
  user: UserRow;
  /** The token was issued for a PKCE flow (stored with the pkce_ prefix). */
  pkce: boolean;
  /** A secure e-mail change still waits for the link sent to the other address. */
  pending: boolean;
}

/**
 * Checks an e-mail token (by its hash from a link, or by address + six-digit code), consumes it and
 * applies its effect: confirm the address, or switch to the new address for an e-mail change.
 */
export async function verifyEmailToken(
  tx: Queryable,
  type: EmailVerifyType,
  proof: { tokenHash: string } | { email: string; otp: string },
  expirySeconds: number,
): Promise<Verified> {
  const hashes =
    'tokenHash' in proof
      ? [proof.tokenHash]
      : [tokenHash(proof.email, proof.otp), `pkce_${tokenHash(proof.email, proof.otp)}`];
  const token = await findToken(tx, TOKEN_TYPES[type], hashes, expirySeconds);
  // Unknown, already used and expired tokens all get the same answer.
  if (!token || token.expired) {
    throw Errors.otpExpired();
  }
  await deleteToken(tx, token.id);
  const user = await findUserById(tx, token.user_id);
  if (!user) {
    throw Errors.otpExpired();
  }
  if (token.token_type === 'email_change_token_new' || token.token_type === 'email_change_token_current') {
    const other =
      token.token_type === 'email_change_token_new' ? 'email_change_token_current' : 'email_change_token_new';
    const { rows } = await tx.query(
      'select 1 from auth.one_time_tokens where user_id = $1 and token_type = $2',
      [user.id, other],
    );
    if (rows.length > 0) {
      return { user, pkce: token.token_hash.startsWith('pkce_'), pending: true };
    }
    await applyEmailChange(tx, user);
  } else {
    await confirmEmail(tx, user.id);
  }
  const updated = (await findUserById(tx, user.id)) ?? user;
  return { user: updated, pkce: token.token_hash.startsWith('pkce_'), pending: false };
}

/** Switches the user to the address waiting in email_change, confirmed. */
export async function applyEmailChange(tx: Queryable, user: UserRow): Promise<void> {
  const next = user.email_change;
  if (!next) {
    throw Errors.otpExpired();
  }
  const taken = await findUserByEmail(tx, next);
  if (taken && taken.id !== user.id) {
    throw authError(422, 'email_exists', 'A user with this email address has already been registered');
  }
  await tx.query(
    `update auth.users set email = $2::text, email_change = '', email_change_sent_at = null, updated_at = now(),
            email_confirmed_at = coalesce(email_confirmed_at, now()),
            raw_user_meta_data = raw_user_meta_data || jsonb_build_object('email', $2::text, 'email_verified', true)
      where id = $1`,
    [user.id, next],
  );
  const { affectedRows } = await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
            updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [user.id, next],
  );
  if (affectedRows === 0) {
    // An anonymous user who confirms an address becomes a permanent e-mail user, as in GoTrue: an email
    // identity, the email provider in app_metadata, is_anonymous false (row-level security sees the change).
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
       values ($1::text, $1::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true,
                                          'phone_verified', false), 'email', now())`,
      [user.id, next],
    );
  }
  await tx.query(
    `update auth.users set is_anonymous = false,
            raw_app_meta_data = jsonb_set(raw_app_meta_data, '{providers}',
              (select coalesce(jsonb_agg(distinct p), '[]') from jsonb_array_elements_text(
                coalesce(raw_app_meta_data->'providers', '[]') || '["email"]') as p))
      where id = $1`,
    [user.id],
  );
}
