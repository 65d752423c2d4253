import type { Hono } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { prepareAuthEmail } from './auth-email.ts';
import type { AuthEmailKind } from './email-templates.ts';
import { authError } from './errors.ts';
import type { AuthEnv } from './guard.ts';
import { tokenHash } from './one-time-tokens.ts';
import { resolveRedirect } from './redirect.ts';
import { readBody } from './request.ts';
import { checkPassword } from './routes-signup.ts';
import { mergeUserMetadata } from './routes-user.ts';
import { Metadata, validEmail } from './schemas.ts';
import { authSettings } from './settings.ts';
import { userJson } from './user-json.ts';
import { createUser, findUserByEmail, findUserById, type UserRow } from './users.ts';

const GenerateLink = z.object({
  type: z.string().max(64),
  email: z.string().max(1024).optional(),
  password: z.string().max(1024).optional(),
  new_email: z.string().max(1024).optional(),
  data: Metadata.nullish(),
  redirect_to: z.string().max(2048).optional(),
});

/** The e-mail each link type would be (and the one-time token it stores). */
const KIND: Record<string, AuthEmailKind> = {
  signup: 'signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change_current: 'email_change_current',
  email_change_new: 'email_change',
};

const emailExists = () =>
  authError(422, 'email_exists', 'A user with this email address has already been registered');

/** A new user for a signup or invite link: exactly the metadata given, unconfirmed. */
const newLinkUser = (tx: Queryable, email: string, password: string | null, data: Record<string, unknown>) =>
  createUser(tx, { email, password, userMetadata: data, confirmed: false, identityInMetadata: false });

/**
 * POST /admin/generate_link (supabase.auth.admin.generateLink): the link and code an e-mail of each type would
 * carry (signup, invite, magiclink, recovery, email_change_current, email_change_new), returned to the service
 * role instead of sent, as GoTrue makes them: a magic link for an unknown address is a signup link; recovery
 * and e-mail change links need the user. Mounted after mountAdmin, whose guard covers /admin/*.
 */
export function mountGenerateLink(app: Hono<AuthEnv>, ctx: StackContext): void {
  app.post('/admin/generate_link', async (c) => {
    const body = await readBody(c, GenerateLink);
    const email = validEmail(body.email);
    const redirectTo = resolveRedirect(ctx.config, body.redirect_to ?? c.req.query('redirect_to'));
    const result = await ctx.db.transaction(async (tx) => {
      let type = body.type;
      let user: UserRow | null = await findUserByEmail(tx, email);
      // A magic link to an unknown address signs up a user without a usable password.
      const passwordless = !user && type === 'magiclink';
      if (passwordless) {
        type = 'signup';
      }
      if (!user && ['recovery', 'email_change_current', 'email_change_new'].includes(type)) {
        throw authError(404, 'user_not_found', 'User with this email not found');
      }
      const kind = KIND[type];
      if (!kind) {
        throw authError(400, 'validation_failed', `Invalid email action link type requested: ${type}`);
      }
      if (type === 'signup' || type === 'invite') {
        if (user?.email_confirmed_at) {
          throw emailExists();
        }
        if (user && type === 'signup' && body.data) {
          await mergeUserMetadata(tx, user.id, body.data);
        }
        if (!user) {
          const password = type === 'signup' && !passwordless ? (body.password ?? '') : null;
          if (password === '') {
            throw authError(400, 'validation_failed', 'Signup requires a valid password');
          }
          if (password !== null) {
            checkPassword(ctx, password);
          }
          user = await newLinkUser(tx, email, password, body.data ?? {});
        }
      }
      const target = user!;
      let address = email;
      if (kind === 'email_change' || kind === 'email_change_current') {
        if (kind === 'email_change_current' && !authSettings(ctx.config).secureEmailChange) {
          throw authError(
            400,
            'validation_failed',
            'Enable secure email change to generate link for current email',
          );
        }
        const newEmail = validEmail(body.new_email);
        const taken = await findUserByEmail(tx, newEmail);
        if (taken && taken.id !== target.id) {
          throw emailExists();
        }
        await tx.query('update auth.users set email_change = $2 where id = $1', [target.id, newEmail]);
        address = kind === 'email_change' ? newEmail : email;
      }
      const prepared = await prepareAuthEmail(ctx, tx, kind, target, address, redirectTo, null);
      if (kind === 'invite') {
        await tx.query('update auth.users set confirmation_sent_at = now() where id = $1', [target.id]);
      }
      const fresh = (await findUserById(tx, target.id)) ?? target;
      return {
        ...(await userJson(tx, fresh)),
        action_link: prepared.link,
        email_otp: prepared.otp,
        // GoTrue hashes the code with the address the link was asked for, whichever address it goes to.
        hashed_token: tokenHash(email, prepared.otp),
        redirect_to: redirectTo,
        verification_type: type,
      };
    });
    return c.json(result);
  });
}
