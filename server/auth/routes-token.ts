import type { Hono } from 'hono';
import type { StackContext } from '../context.ts';
import { authError, AuthError, Errors } from './errors.ts';
import type { AuthEnv } from './guard.ts';
import { consumeFlowState, type FlowMethod } from './pkce.ts';
import type { AuthLimits } from './limits.ts';
import { refreshGrant } from './refresh.ts';
import { idTokenGrantDisabled, web3Disabled } from './routes-not-offered.ts';
import { clientIp, readBody } from './request.ts';
import { PasswordGrantBody, PkceGrantBody, RefreshGrantBody } from './schemas.ts';
import { issueSession, type AmrMethod } from './sessions.ts';
import { authSettings } from './settings.ts';
import { findUserByEmail, findUserById, isBanned, passwordMatches } from './users.ts';

/** Flow methods become the amr method of the session they end in. */
const FLOW_AMR: Record<FlowMethod, AmrMethod> = {
  'email/signup': 'email/signup',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
  invite: 'invite',
  otp: 'otp',
};

/** POST /token?grant_type=password|refresh_token|pkce. */
export function mountToken(app: Hono<AuthEnv>, ctx: StackContext, limits: AuthLimits): void {
  app.post('/token', async (c) => {
    const settings = authSettings(ctx.config);
    const grant = c.req.query('grant_type');
    const ip = clientIp(c);
    const meta = { ip, userAgent: c.req.header('user-agent') };
    await (grant === 'refresh_token' ? limits.refresh(ip) : limits.signIn(ip));

    if (grant === 'password') {
      const body = await readBody(c, PasswordGrantBody);
      if (body.email && body.phone) {
        throw Errors.validation('Only an email address or phone number should be provided on login.');
      }
      if (!body.email) {
        throw body.phone
          ? authError(422, 'phone_provider_disabled', 'Phone logins are disabled')
          : Errors.validation('missing email or phone');
      }
      const email = body.email;
      // Too many wrong passwords for this account, from wherever: refused before the password is checked,
      // so guessing from many addresses gains nothing. Unknown addresses are counted alike.
      await limits.checkAccount(email);
      const user = await findUserByEmail(ctx.db, email);
      // Unknown user, no password and wrong password all look the same (no account enumeration).
      if (!(await passwordMatches(user, body.password)) || !user) {
        await limits.accountFailed(email);
        throw Errors.invalidCredentials();
      }
      const session = await ctx.db.transaction(async (tx) => {
        if (isBanned(user)) {
          throw authError(400, 'user_banned', 'User is banned');
        }
        if (!user.email_confirmed_at) {
          throw Errors.emailNotConfirmed();
        }
        return issueSession(ctx, tx, user, 'password', meta);
      });
      return c.json(session);
    }

    if (grant === 'refresh_token') {
      const body = await readBody(c, RefreshGrantBody);
      const result = await ctx.db.transaction((tx) => refreshGrant(ctx, tx, body.refresh_token));
      if (result instanceof AuthError) {
        throw result;
      }
      return c.json(result);
    }

    if (grant === 'pkce') {
      const body = await readBody(c, PkceGrantBody);
      if (!body.auth_code || !body.code_verifier) {
        throw Errors.validation('invalid request: both auth code and code verifier should be non-empty');
      }
      const { auth_code: code, code_verifier: verifier } = body;
      const session = await ctx.db.transaction(async (tx) => {
        const flow = await consumeFlowState(tx, code, verifier, settings.flowStateExpirySeconds);
        const user = await findUserById(tx, flow.userId);
        if (!user) {
          throw authError(404, 'user_not_found', 'User not found');
        }
        if (isBanned(user)) {
          throw authError(400, 'user_banned', 'User is banned');
        }
        return issueSession(ctx, tx, user, FLOW_AMR[flow.method], meta);
      });
      return c.json(session);
    }

    if (grant === 'web3') {
      throw web3Disabled();
    }
    if (grant === 'id_token') {
      return idTokenGrantDisabled(c);
    }
    // GoTrue's answer to a grant type it does not know.
    throw authError(400, 'invalid_credentials', 'unsupported_grant_type');
  });
}
