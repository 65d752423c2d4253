import type { Queryable } from '../db/database.ts';
import type { StackContext } from '../context.ts';
import { authError, Errors, type AuthError } from './errors.ts';
import { insertRefreshToken, sessionResponse, type SessionResponse } from './sessions.ts';
import { audit } from './audit.ts';
import { authSettings } from './settings.ts';
import { findUserById, isBanned } from './users.ts';

interface TokenRow {
  id: number;
  token: string;
  user_id: string;
  revoked: boolean;
  session_id: string | null;
  age_seconds: number;
}

/**
 * grant_type=refresh_token with rotation (GoTrue's RefreshTokenGrant): the presented token is revoked and
 * a child issued. A revoked token is still honoured within the reuse interval when it is the parent of
 * the session's active token (two tabs refreshing at once); any later reuse means the token leaked, so
 * the whole session is ended.
 */
export async function refreshGrant(
  ctx: StackContext,
  tx: Queryable,
  presented: string,
): Promise<SessionResponse | AuthError> {
  const { rows } = await tx.query<TokenRow>(
    `select id, token, user_id, revoked, session_id, extract(epoch from now() - updated_at)::float8 as age_seconds
       from auth.refresh_tokens where token = $1 for update`,
    [presented],
  );
  const token = rows[0];
  if (!token) {
    throw authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  }
  const sessionId = token.session_id;
  const session = sessionId
    ? (
        await tx.query<{ expired: boolean }>(
          'select coalesce(not_after < now(), false) as expired from auth.sessions where id = $1',
          [sessionId],
        )
      ).rows[0]
    : undefined;
  if (!sessionId || !session) {
    throw Errors.sessionNotFound(400);
  }
  if (session.expired) {
    throw authError(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
  }
  const user = await findUserById(tx, token.user_id);
  if (!user) {
    throw Errors.sessionNotFound(400);
  }
  // A banned user keeps no way back in through an old refresh token.
  if (isBanned(user)) {
    throw authError(400, 'user_banned', 'User is banned');
  }
  if (token.revoked) {
    const child = await tx.query<{ token: string }>(
      'select token from auth.refresh_tokens where parent = $1 and revoked = false and session_id = $2 order by id desc limit 1',
      [token.token, sessionId],
    );
    const active = child.rows[0];
    if (active && token.age_seconds < authSettings(ctx.config).refreshReuseIntervalSeconds) {
      return sessionResponse(ctx, tx, user, sessionId, active.token);
    }
    // Reuse outside the window: treat the family as compromised and end the session.
    await tx.query(
      'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1',
      [sessionId],
    );
    await tx.query('delete from auth.sessions where id = $1', [sessionId]);
    await audit(tx, 'token_revoked', user, '', { reason: 'refresh_token_reuse', session_id: sessionId });
    // Returned, not thrown: a throw would roll back the revocation above.
    return authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [
    token.id,
  ]);
  await tx.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [
    sessionId,
  ]);
  const next = await insertRefreshToken(tx, user.id, sessionId, token.token);
  return sessionResponse(ctx, tx, user, sessionId, next);
}
