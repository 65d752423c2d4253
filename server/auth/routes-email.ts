import type { Context, Hono } from 'hono';
import type { Queryable } from '../db/database.ts';
import type { OutgoingMail, StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { prepareAuthEmail } from './auth-email.ts';
import type { AuthEmailKind } from './email-templates.ts';
import { authError, Errors } from './errors.ts';
import { requireUser, type AuthEnv } from './guard.ts';
import { parsePkce } from './pkce.ts';
import type { AuthLimits } from './limits.ts';
import { resolveRedirect } from './redirect.ts';
import { clientIp, readBody, redirectParam } from './request.ts';
import { OtpBody, RecoverBody, ResendBody } from './schemas.ts';
import { createUser, findUserByEmail } from './users.ts';

/** POST /recover, /resend, /otp and GET /reauthenticate: the endpoints whose job is to send an e-mail. */
export function mountEmailRoutes(app: Hono<AuthEnv>, ctx: StackContext, limits: AuthLimits): void {
  const limitIp = (c: Context) => limits.signIn(clientIp(c));
  /** GoTrue's per-address spacing of e-mails of one kind (SMTP max_frequency). */
  const throttle = (kind: AuthEmailKind, address: string, tx?: Queryable) =>
    limits.emailSpacing(kind, address, tx);
  const send = async (mail: OutgoingMail | null) => {
    if (mail) {
      await ctx.mailer.send(mail);
    }
  };

  app.post('/recover', async (c) => {
    await limitIp(c);
    const body = await readBody(c, RecoverBody);
    const pkce = parsePkce(body.code_challenge, body.code_challenge_method);
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const mail = await ctx.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, body.email);
      // Unknown addresses get the same empty answer: the endpoint must not reveal who has an account.
      if (!user) {
        return null;
      }
      await throttle('recovery', body.email, tx);
      await audit(tx, 'user_recovery_requested', user, clientIp(c));
      return (await prepareAuthEmail(ctx, tx, 'recovery', user, body.email.toLowerCase(), redirectTo, pkce))
        .mail;
    });
    await send(mail);
    return c.json({});
  });

  app.post('/resend', async (c) => {
    await limitIp(c);
    const body = await readBody(c, ResendBody);
    // GoTrue's checks in its order, with the phone provider off.
    if (!body.email && body.type === 'signup') {
      throw Errors.validation('Type provided requires an email address');
    }
    if (!body.phone && body.type === 'sms') {
      throw Errors.validation('Type provided requires a phone number');
    }
    if (body.email && body.phone) {
      throw Errors.validation('Only an email address or phone number should be provided.');
    }
    if (!body.email) {
      throw body.phone
        ? authError(400, 'phone_provider_disabled', 'Phone logins are disabled')
        : Errors.validation('Missing email address or phone number');
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
        await throttle('signup', email, tx);
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
      await throttle('email_change', user.email_change, tx);
      return (await prepareAuthEmail(ctx, tx, 'email_change', user, user.email_change, redirectTo, pkce))
        .mail;
    });
    await send(mail);
    return c.json({});
  });

  app.post('/otp', async (c) => {
    await limitIp(c);
    const body = await readBody(c, OtpBody);
    if (body.email && body.phone) {
      throw Errors.validation('Only an email address or phone number should be provided');
    }
    if (!body.email) {
      throw body.phone
        ? authError(400, 'phone_provider_disabled', 'Unsupported phone provider')
        : Errors.validation('One of email or phone must be set');
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
      await throttle(kind, email, tx);
      return (await prepareAuthEmail(ctx, tx, kind, user, email, redirectTo, pkce)).mail;
    });
    await send(mail);
    return c.json({});
  });

  app.get('/reauthenticate', async (c) => {
    const { user } = await requireUser(ctx, c);
    if (!user.email) {
      throw authError(
        400,
        'validation_failed',
        'Reauthentication requires the user to have an email or a phone number',
      );
    }
    const email = user.email;
    await throttle('reauthentication', email);
    const mail = await ctx.db.transaction(
      async (tx) =>
        (await prepareAuthEmail(ctx, tx, 'reauthentication', user, email, ctx.config.siteUrl, null)).mail,
    );
    await send(mail);
    return c.json({});
  });
}
