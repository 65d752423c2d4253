import type { Hono } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { prepareAuthEmail } from './auth-email.ts';
import type { AuthEmailKind } from './email-templates.ts';
import { authError } from './errors.ts';
import type { AuthEnv } from './guard.ts';
import { resolveRedirect } from './redirect.ts';
import { readBody } from './request.ts';
import { Email, Metadata } from './schemas.ts';
import { userJson } from './user-json.ts';
import { createUser, findUserByEmail, findUserById } from './users.ts';

const GenerateLink = z.object({
  type: z.enum(['signup', 'invite', 'magiclink', 'recovery', 'email_change_new']),
  email: Email,
  password: z.string().max(1024).optional(),
  new_email: Email.optional(),
  data: Metadata.optional(),
  redirect_to: z.string().max(2048).optional(),
});

/**
 * POST /admin/generate_link (supabase.auth.admin.generateLink): the link and code an e-mail would carry,
 * returned to the service role instead of sent. Mounted after mountAdmin, whose guard covers /admin/*.
 */
export function mountGenerateLink(app: Hono<AuthEnv>, ctx: StackContext): void {
  app.post('/admin/generate_link', async (c) => {
    const body = await readBody(c, GenerateLink);
    const redirectTo = resolveRedirect(ctx.config, body.redirect_to ?? c.req.query('redirect_to'));
    const result = await ctx.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, body.email);
      if (!user) {
        if (body.type !== 'signup' && body.type !== 'invite' && body.type !== 'magiclink') {
          throw authError(404, 'user_not_found', 'User with this email not found');
        }
        user = await createUser(tx, {
          email: body.email,
          password: body.password ?? null,
          userMetadata: body.data ?? {},
          confirmed: false,
        });
      } else if (body.type === 'signup' || body.type === 'invite') {
        throw authError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      let kind: AuthEmailKind = body.type === 'email_change_new' ? 'email_change' : body.type;
      let address = body.email.toLowerCase();
      if (kind === 'email_change') {
        if (!body.new_email) {
          throw authError(400, 'validation_failed', 'new_email is required for email_change_new');
        }
        address = body.new_email.toLowerCase();
        await tx.query('update auth.users set email_change = $2 where id = $1', [user.id, address]);
      } else if (kind === 'magiclink' && !user.email_confirmed_at) {
        kind = 'signup';
      }
      const prepared = await prepareAuthEmail(ctx, tx, kind, user, address, redirectTo, null);
      const fresh = (await findUserById(tx, user.id)) ?? user;
      return {
        ...(await userJson(tx, fresh)),
        action_link: prepared.link,
        email_otp: prepared.otp,
        hashed_token: prepared.hashedToken,
        redirect_to: redirectTo,
        verification_type: kind,
      };
    });
    return c.json(result);
  });
}
