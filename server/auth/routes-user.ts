import type { Hono } from 'hono';
import type { Queryable } from '../db/database.ts';
import type { OutgoingMail, StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { applyEmailChange } from './verify.ts';
import { prepareAuthEmail } from './auth-email.ts';
import { authError, Errors } from './errors.ts';
import { requireUser, type AuthEnv } from './guard.ts';
import { deleteToken, findToken, tokenHash } from './one-time-tokens.ts';
import { parsePkce } from './pkce.ts';
import type { AuthLimits } from './limits.ts';
import { resolveRedirect } from './redirect.ts';
import { clientIp, readBody, redirectParam } from './request.ts';
import { checkPassword } from './routes-signup.ts';
import { UpdateUserBody } from './schemas.ts';
import { revokeSessions } from './sessions.ts';
import { authSettings } from './settings.ts';
import { userJson } from './user-json.ts';
import { hasVerifiedFactor } from './mfa/verified-factors.ts';
import { findUserByEmail, findUserById, hashPassword, passwordMatches, type UserRow } from './users.ts';

/** Merges metadata like GoTrue's UpdateUserMetaData: keys set to null are removed. */
export async function mergeUserMetadata(
  tx: Queryable,
  userId: string,
  data: Record<string, unknown>,
): Promise<void> {
  const removed = Object.keys(data).filter((k) => data[k] === null);
  await tx.query(
    `update auth.users set raw_user_meta_data = (raw_user_meta_data || $2::jsonb) - $3::text[], updated_at = now() where id = $1`,
    [userId, JSON.stringify(data), removed],
  );
}

/** A reauthentication nonce (GET /reauthenticate e-mailed it) is single use and expires like an OTP. */
async function consumeNonce(
  tx: Queryable,
  user: UserRow,
  nonce: string,
  expirySeconds: number,
): Promise<void> {
  const token = user.email
    ? await findToken(tx, ['reauthentication_token'], [tokenHash(user.email, nonce)], expirySeconds)
    : null;
  if (!token || token.expired || token.user_id !== user.id) {
    throw authError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
  }
  await deleteToken(tx, token.id);
}

/** GET/PUT /user and POST /logout. */
export function mountUser(app: Hono<AuthEnv>, ctx: StackContext, limits: AuthLimits): void {
  app.get('/user', async (c) => {
    const { user } = await requireUser(ctx, c);
    return c.json(await userJson(ctx.db, user));
  });

  app.put('/user', async (c) => {
    const { user, sessionId, aal } = await requireUser(ctx, c);
    const body = await readBody(c, UpdateUserBody);
    if (body.phone) {
      throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    }
    if (user.is_anonymous && body.password && !body.email) {
      throw authError(
        422,
        'validation_failed',
        'Updating password of an anonymous user without an email or phone is not allowed',
      );
    }
    // As GoTrue: with a verified factor, the password and the e-mail address change only in a session that
    // passed it, so a stolen password (or a recovery link alone) cannot take the account over.
    const changesCredentials =
      body.password !== undefined || (body.email !== undefined && body.email.toLowerCase() !== user.email);
    if (changesCredentials && aal !== 'aal2' && (await hasVerifiedFactor(ctx.db, user.id))) {
      throw Errors.aal2RequiredForCredentials();
    }
    const settings = authSettings(ctx.config);
    const pkce = body.email ? parsePkce(body.code_challenge, body.code_challenge_method) : null;
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const mails: OutgoingMail[] = [];
    const updated = await ctx.db.transaction(async (tx) => {
      if (body.nonce !== undefined) {
        await consumeNonce(tx, user, body.nonce, settings.otpExpirySeconds);
      }
      if (body.password !== undefined) {
        checkPassword(ctx, body.password);
        if (body.current_password !== undefined && !(await passwordMatches(user, body.current_password))) {
          throw authError(400, 'invalid_credentials', 'Current password is incorrect');
        }
        if (await passwordMatches(user, body.password)) {
          throw authError(422, 'same_password', 'New password should be different from the old password.');
        }
        await tx.query('update auth.users set encrypted_password = $2, updated_at = now() where id = $1', [
          user.id,
          await hashPassword(body.password),
        ]);
        // A new password ends every other session, as GoTrue does: a thief's session must not survive a reset.
        await revokeSessions(tx, user.id, sessionId, 'others');
        await audit(tx, 'user_updated_password', user, clientIp(c));
      }
      if (body.data) {
        await mergeUserMetadata(tx, user.id, body.data);
      }
      const newEmail = body.email?.toLowerCase();
      if (newEmail && newEmail !== user.email) {
        const taken = await findUserByEmail(tx, newEmail);
        if (taken && taken.id !== user.id) {
          throw authError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        if (ctx.config.autoconfirm) {
          await tx.query(`update auth.users set email_change = $2 where id = $1`, [user.id, newEmail]);
          await applyEmailChange(tx, { ...user, email_change: newEmail });
        } else {
          await limits.emailSpacing('email_change', newEmail, tx);
          await tx.query(`update auth.users set email_change = $2, updated_at = now() where id = $1`, [
            user.id,
            newEmail,
          ]);
          mails.push(
            (await prepareAuthEmail(ctx, tx, 'email_change', user, newEmail, redirectTo, pkce)).mail,
          );
          if (settings.secureEmailChange && user.email) {
            mails.push(
              (await prepareAuthEmail(ctx, tx, 'email_change_current', user, user.email, redirectTo, pkce))
                .mail,
            );
          } else {
            // Without secure change a confirmation from the old address is not needed; drop any stale one.
            await tx.query(
              `delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change_token_current'`,
              [user.id],
            );
          }
        }
      }
      if (body.data || newEmail) {
        await audit(tx, 'user_modified', user, clientIp(c));
      }
      const fresh = (await findUserById(tx, user.id)) ?? user;
      return userJson(tx, fresh);
    });
    for (const mail of mails) {
      await ctx.mailer.send(mail);
    }
    return c.json(updated);
  });

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
      throw Errors.validation(`Unsupported logout scope "${scope.slice(0, 32)}"`);
    }
    const { user, sessionId } = await requireUser(ctx, c);
    await ctx.db.transaction(async (tx) => {
      await revokeSessions(tx, user.id, sessionId, scope);
      await audit(tx, 'logout', user, clientIp(c), { scope });
    });
    return c.body(null, 204);
  });
}
