import type { Context, MiddlewareHandler } from 'hono';
import type { StackContext } from '../context.ts';
import type { JwtClaims } from '../keys.ts';
import { isRoleFailure, resolveRequestRole, type RequestRole } from '../http/request-role.ts';
import { authError, Errors } from './errors.ts';
import { sessionExists } from './sessions.ts';
import { findUserById, type UserRow } from './users.ts';

export interface AuthedUser {
  user: UserRow;
  sessionId: string;
  aal: string;
  claims: JwtClaims;
}

export type AuthEnv = { Variables: { role: RequestRole } };

/**
 * Supabase's gateway in front of GoTrue: every /auth/v1 request needs one of the stack's API keys, except
 * the links people open from e-mails and the public key set. A bad Bearer token is GoTrue's 403 bad_jwt.
 */
export function apiKeyGate(ctx: StackContext): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const apikey = c.req.header('apikey') ?? c.req.query('apikey');
    const who = await resolveRequestRole(ctx.keys, apikey, c.req.header('authorization'));
    if (isRoleFailure(who)) {
      if (who.kind === 'no_api_key') {
        throw authError(401, 'no_api_key', 'No API key found in request', {
          hint: 'No `apikey` request header or url param was found.',
        });
      }
      if (who.kind === 'invalid_api_key') {
        throw authError(401, 'invalid_api_key', 'Invalid API key');
      }
      if (who.kind === 'malformed_authorization') {
        // GoTrue's answer when the header does not match `^[Bb]earer (\S+)$`.
        throw Errors.noAuthorization();
      }
      throw Errors.badJwt(
        who.kind === 'expired_jwt' ? 'token has invalid claims: token is expired' : who.message,
      );
    }
    c.set('role', who);
    await next();
  };
}

/** GoTrue's requireAuthentication + session check: the Bearer user, whose session must still exist. */
export async function requireUser(ctx: StackContext, c: Context<AuthEnv>): Promise<AuthedUser> {
  const who = c.get('role');
  if (!who.accessToken) {
    throw Errors.noAuthorization();
  }
  const { claims } = who;
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  // An API key JWT (anon / service_role) is valid but names no user.
  if (!sub || who.role !== 'authenticated') {
    throw Errors.badJwt('invalid claim: missing sub claim');
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : '';
  const session = sessionId ? await sessionExists(ctx.db, sessionId) : null;
  if (!session) {
    throw Errors.sessionNotFound(403);
  }
  const user = await findUserById(ctx.db, sub);
  if (!user) {
    throw Errors.userNotFound();
  }
  return { user, sessionId, aal: session.aal, claims };
}

/** The factor routes, which GoTrue refuses to anonymous users (their account has nothing to protect yet). */
export async function requireFactorUser(ctx: StackContext, c: Context<AuthEnv>): Promise<AuthedUser> {
  const authed = await requireUser(ctx, c);
  if (authed.claims.is_anonymous === true) {
    throw authError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions');
  }
  return authed;
}

/** The admin endpoints are for the service role only (the service key, or a service_role JWT). */
export function requireAdmin(c: Context<AuthEnv>): void {
  if (c.get('role').role !== 'service_role') {
    throw Errors.notAdmin();
  }
}
