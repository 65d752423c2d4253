import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { authSettings } from './settings.ts';
import { userJson } from './user-json.ts';
import { findUserById, toDate, type Stamp, type UserRow } from './users.ts';

/** amr methods GoTrue records. */
export type AmrMethod =
  | 'password'
  | 'otp'
  | 'magiclink'
  | 'email/signup'
  | 'recovery'
  | 'invite'
  | 'email_change'
  | 'totp'
  | 'mfa/webauthn'
  | 'anonymous';

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

/** Refresh tokens: opaque, unguessable, URL-safe. */
const newRefreshToken = () => randomBytes(24).toString('base64url');

export async function insertRefreshToken(
  tx: Queryable,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = newRefreshToken();
  await tx.query(
    'insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)',
    [token, userId, sessionId, parent],
  );
  return token;
}

/** Access token + the session body for a refresh token already stored against `sessionId`. */
export async function sessionResponse(
  ctx: StackContext,
  tx: Queryable,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<SessionResponse> {
  const ttl = authSettings(ctx.config).accessTokenTtlSeconds;
  const session = await tx.query<{ aal: string }>('select aal from auth.sessions where id = $1', [sessionId]);
  const amr = await tx.query<{ method: string; at: Stamp }>(
    `select authentication_method as method, updated_at as at from auth.mfa_amr_claims
      where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  const userBody = await userJson(tx, user);
  const accessToken = await ctx.keys.sign(
    {
      iss: `${ctx.config.publicUrl}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data,
      user_metadata: user.raw_user_meta_data,
      role: user.role || 'authenticated',
      aal: session.rows[0]?.aal ?? 'aal1',
      amr: amr.rows.map((r) => ({ method: r.method, timestamp: Math.floor(toDate(r.at).getTime() / 1000) })),
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ttl,
  );
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ttl,
    expires_at: Math.floor(Date.now() / 1000) + ttl,
    refresh_token: refreshToken,
    user: userBody,
  };
}

export async function addAmrClaim(tx: Queryable, sessionId: string, method: AmrMethod): Promise<void> {
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, $2)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
}

/** A new aal1 session for a first-factor sign-in; records last_sign_in_at like GoTrue. */
export async function issueSession(
  ctx: StackContext,
  tx: Queryable,
  user: UserRow,
  method: AmrMethod,
  meta: { userAgent?: string | undefined; ip?: string | undefined } = {},
): Promise<SessionResponse> {
  const sessionId = randomUUID();
  await tx.query(
    `insert into auth.sessions (id, user_id, aal, user_agent, ip) values ($1, $2, 'aal1', $3, $4::inet)`,
    [sessionId, user.id, meta.userAgent ?? null, meta.ip && /^[0-9a-f.:]+$/i.test(meta.ip) ? meta.ip : null],
  );
  await addAmrClaim(tx, sessionId, method);
  await audit(tx, 'login', user, meta.ip ?? '', { provider: 'email', method });
  await tx.query('update auth.users set last_sign_in_at = now() where id = $1', [user.id]);
  await tx.query(
    `update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`,
    [user.id],
  );
  const refreshed = (await findUserById(tx, user.id)) ?? user;
  const token = await insertRefreshToken(tx, user.id, sessionId, null);
  return sessionResponse(ctx, tx, refreshed, sessionId, token);
}

export async function sessionExists(
  tx: Queryable,
  sessionId: string,
): Promise<{ aal: string; not_after: Stamp | null } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) {
    return null;
  }
  const { rows } = await tx.query<{ aal: string; not_after: Stamp | null }>(
    'select aal, not_after from auth.sessions where id = $1',
    [sessionId],
  );
  return rows[0] ?? null;
}

/** Sign-out: `global` ends every session of the user, `local` this one, `others` all but this one. */
export async function revokeSessions(
  tx: Queryable,
  userId: string,
  sessionId: string,
  scope: 'global' | 'local' | 'others',
): Promise<void> {
  if (scope === 'local') {
    await tx.query('delete from auth.sessions where id = $1 and user_id = $2', [sessionId, userId]);
  } else if (scope === 'others') {
    await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
  } else {
    await tx.query('delete from auth.sessions where user_id = $1', [userId]);
  }
}
