import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current';

/** A six-digit e-mail OTP ({{ .Token }} in GoTrue's templates). */
export const newOtp = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

/** GoTrue's token hash: hex(sha224(email + otp)); PKCE links carry it with a `pkce_` prefix. */
export const tokenHash = (email: string, otp: string) =>
  createHash('sha224')
    .update(email.toLowerCase() + otp)
    .digest('hex');

/** One live token per user and type: a new e-mail invalidates the previous link. */
export async function storeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
  hash: string,
  relatesTo: string,
): Promise<void> {
  await tx.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, $2, $3, $4)
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash,
       relates_to = excluded.relates_to, created_at = now(), updated_at = now()`,
    [userId, type, hash, relatesTo.toLowerCase()],
  );
}

export interface FoundToken {
  id: string;
  user_id: string;
  token_type: OneTimeTokenType;
  token_hash: string;
  relates_to: string;
  expired: boolean;
}

/** The token with one of `hashes` among `types` (deleted when consumed by the caller). */
export async function findToken(
  tx: Queryable,
  types: readonly OneTimeTokenType[],
  hashes: readonly string[],
  expirySeconds: number,
): Promise<FoundToken | null> {
  const { rows } = await tx.query<FoundToken>(
    `select id, user_id, token_type::text as token_type, token_hash, relates_to,
            updated_at + make_interval(secs => $3) < now()::timestamp as expired
       from auth.one_time_tokens
      where token_type::text = any($1::text[]) and token_hash = any($2::text[])
      order by updated_at desc limit 1 for update`,
    [types, hashes, expirySeconds],
  );
  return rows[0] ?? null;
}

export async function deleteToken(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from auth.one_time_tokens where id = $1', [id]);
}
