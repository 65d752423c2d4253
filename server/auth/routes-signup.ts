import type { Hono } from 'hono';
import type { OutgoingMail, StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { prepareAuthEmail } from './auth-email.ts';
import { authError, Errors } from './errors.ts';
import type { AuthEnv } from './guard.ts';
import { parsePkce } from './pkce.ts';
import type { AuthLimits } from './limits.ts';
import { resolveRedirect } from './redirect.ts';
import { clientIp, readBody, redirectParam } from './request.ts';
import { SignupBody } from './schemas.ts';
import { issueSession, type SessionResponse } from './sessions.ts';
import { authSettings } from './settings.ts';
import { obfuscatedUser, userJson } from './user-json.ts';
import { createAnonymousUser, createUser, findUserByEmail } from './users.ts';

/** GoTrue's password rule: a minimum length (weak_password 422 with reasons ['length']). */
export function checkPassword(ctx: StackContext, password: string): void {
  const min = authSettings(ctx.config).minPasswordLength;
  if ([...password].length < min) {
    throw Errors.weakPassword(min);
  }
  // bcrypt reads only the first 72 bytes: a longer password would silently match its own prefix.
  if (Buffer.byteLength(password, 'utf8') > 72) {
    throw Errors.validation('Password cannot be longer than 72 characters');
  }
}

/** POST /signup: e-mail + password sign-up, with confirmation e-mail unless autoconfirm is on. */
export function mountSignup(app: Hono<AuthEnv>, ctx: StackContext, limits: AuthLimits): void {
  app.post('/signup', async (c) => {
    // As GoTrue: the body is read first, then an anonymous sign-in takes from its own hourly bucket and
    // everything else from the sign-up one.
    const body = await readBody(c, SignupBody);
    const anonymous = !body.email && !body.phone;
    if (!anonymous) {
      await limits.signIn(clientIp(c));
    }
    if (body.phone && !body.email) {
      throw authError(400, 'phone_provider_disabled', 'Phone signups are disabled');
    }
    if (anonymous) {
      if (!authSettings(ctx.config).anonymousSignIns) {
        throw authError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      }
      await limits.anonymousSignIn(clientIp(c));
      const meta = { ip: clientIp(c), userAgent: c.req.header('user-agent') };
      const session = await ctx.db.transaction(async (tx) => {
        const user = await createAnonymousUser(tx, body.data ?? {});
        await audit(tx, 'user_signedup', user, meta.ip, { provider: 'anonymous' });
        return issueSession(ctx, tx, user, 'anonymous', meta);
      });
      return c.json(session);
    }
    if (!body.email) {
      throw Errors.validation('To signup, please provide your email');
    }
    if (!body.password) {
      throw Errors.validation('Signup requires a valid password');
    }
    checkPassword(ctx, body.password);
    const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const email = body.email.toLowerCase();
    const metadata = body.data ?? {};

    let mail: OutgoingMail | null = null;
    const result = await ctx.db.transaction(
      async (tx): Promise<SessionResponse | Record<string, unknown>> => {
        const existing = await findUserByEmail(tx, email);
        if (existing?.email_confirmed_at) {
          // With confirmation on, a taken address must look like a fresh sign-up (no account enumeration).
          if (ctx.config.autoconfirm) {
            throw authError(422, 'user_already_exists', 'User already registered');
          }
          return obfuscatedUser(email, metadata);
        }
        const user =
          existing ??
          (await createUser(tx, {
            email,
            password: body.password ?? null,
            userMetadata: metadata,
            confirmed: ctx.config.autoconfirm,
          }));
        await audit(tx, existing ? 'user_repeated_signup' : 'user_signedup', user, clientIp(c), {
          provider: 'email',
        });
        if (ctx.config.autoconfirm) {
          return issueSession(ctx, tx, user, 'password', {
            ip: clientIp(c),
            userAgent: c.req.header('user-agent'),
          });
        }
        await limits.emailSpacing('signup', email, tx);
        const prepared = await prepareAuthEmail(ctx, tx, 'signup', user, email, redirectTo, pkce);
        mail = prepared.mail;
        const fresh = await findUserByEmail(tx, email);
        return userJson(tx, fresh ?? user);
      },
    );
    if (mail) {
      await ctx.mailer.send(mail);
    }
    return c.json(result);
  });
}
