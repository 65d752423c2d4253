import type { Context, Hono } from 'hono';
import type { OutgoingMail, StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { prepareAuthEmail } from './auth-email.ts';
import type { AuthEmailKind } from './email-templates.ts';
import { authError, Errors } from './errors.ts';
import { requireUser, type AuthEnv } from './guard.ts';
import { parsePkce } from './pkce.ts';
import type { RateLimiter } from './rate-limit.ts';
import { resolveRedirect } from './redirect.ts';
import { clientIp, readBody, redirectParam } from './request.ts';
import { OtpBody, RecoverBody, ResendBody } from './schemas.ts';
import { authSettings } from './settings.ts';
import { createUser, findUserByEmail } from './users.ts';

/** POST /recover, /resend, /otp and GET /reauthenticate: the endpoints whose job is to send an e-mail. */
export function mountEmailRoutes(app: Hono<AuthEnv>, ctx: StackContext, limiter: RateLimiter): void {
  const settings = () => authSettings(ctx.config);
  const limitIp = (c: Context) => {
    const { signInSignUps, windowSeconds } = settings().rateLimits;
    if (!limiter.hit(`signin:${clientIp(c)}`, signInSignUps, windowSeconds)) {
      throw Errors.rateLimited();
    }
  };
  /** GoTrue's per-address spacing of e-mails of one kind (SMTP max_frequency). */
  const throttle = (kind: AuthEmailKind, address: string) => {
    const wait = limiter.emailWait(kind, address, settings().rateLimits.emailMinIntervalSeconds);
    if (wait > 0) {
      throw Errors.emailRateLimited(wait);
    }
  };
  const send = async (mail: OutgoingMail | null) => {
    if (mail) {
      await ctx.mailer.send(mail);
    }
  };

  app.post('/recover', async (c) => {
    limitIp(c);
    const body = await readBody(c, RecoverBody);
    const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const mail = await ctx.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, body.email);
      // Unknown addresses get the same empty answer: the endpoint must not reveal who has an account.
      if (!user) {
        return null;
      }
      throttle('recovery', body.email);
      await audit(tx, 'user_recovery_requested', user, clientIp(c));
      return (await prepareAuthEmail(ctx, tx, 'recovery', user, body.email.toLowerCase(), redirectTo, pkce))
        .mail;
    });
    await send(mail);
    return c.json({});
  });

  app.post('/resend', async (c) => {
    limitIp(c);
    const body = await readBody(c, ResendBody);
    if (body.type === 'sms' || body.type === 'phone_change' || !body.email) {
      throw body.email
        ? authError(400, 'phone_provider_disabled', 'Phone logins are disabled')
        : Errors.validation('Resend requires an email');
    }
    const email = body.email.toLowerCase();
    const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const mail = await ctx.db.transaction(async (tx) => {
      if (body.type === 'signup') {
        const user = await findUserByEmail(tx, email);
        if (!user || user.email_confirmed_at) {
          return null;
        }
        throttle('signup', email);
        return (await prepareAuthEmail(ctx, tx, 'signup', user, email, redirectTo, pkce)).mail;
      }
      const { rows } = await tx.query<{ id: string; email_change: string }>(
        `select id, email_change from auth.users where lower(email) = $1 and coalesce(email_change, '') <> ''`,
        [email],
      );
      const user = rows[0];
      if (!user) {
        return null;
      }
      throttle('email_change', user.email_change);
      return (await prepareAuthEmail(ctx, tx, 'email_change', user, user.email_change, redirectTo, pkce))
        .mail;
    });
    await send(mail);
    return c.json({});
  });

  app.post('/otp', async (c) => {
    limitIp(c);
    const body = await readBody(c, OtpBody);
    if (!body.email) {
      throw body.phone
        ? authError(400, 'phone_provider_disabled', 'Phone logins are disabled')
        : Errors.validation('Provide an email address');
    }
    const email = body.email.toLowerCase();
    const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const mail = await ctx.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (!user) {
        if (body.create_user === false) {
          throw authError(422, 'otp_disabled', 'Signups not allowed for otp');
        }
        user = await createUser(tx, {
          email,
          password: null,
          userMetadata: body.data ?? {},
          confirmed: false,
        });
      }
      // A confirmed address gets a magic link; an unconfirmed one its sign-up confirmation.
      const kind: AuthEmailKind = user.email_confirmed_at ? 'magiclink' : 'signup';
      throttle(kind, email);
      return (await prepareAuthEmail(ctx, tx, kind, user, email, redirectTo, pkce)).mail;
    });
    await send(mail);
    return c.json({});
  });

  app.get('/reauthenticate', async (c) => {
    const { user } = await requireUser(ctx, c);
    if (!user.email) {
      throw authError(422, 'validation_failed', 'Reauthentication requires the user to have an email');
    }
    const email = user.email;
    throttle('reauthentication', email);
    const mail = await ctx.db.transaction(
      async (tx) =>
        (await prepareAuthEmail(ctx, tx, 'reauthentication', user, email, ctx.config.siteUrl, null)).mail,
    );
    await send(mail);
    return c.json({});
  });
}
