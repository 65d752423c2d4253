import type { Hono } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { prepareAuthEmail } from './auth-email.ts';
import { authError } from './errors.ts';
import { requireAdmin, type AuthEnv } from './guard.ts';
import { resolveRedirect } from './redirect.ts';
import { clientIp, readBody, redirectParam } from './request.ts';
import { Metadata, validEmail } from './schemas.ts';
import { userJson } from './user-json.ts';
import { createUser, findUserByEmail, findUserById } from './users.ts';

const InviteBody = z.object({ email: z.string().max(1024).optional(), data: Metadata.nullish() });

/**
 * POST /invite (supabase.auth.admin.inviteUserByEmail), for the service role: creates the user (with exactly
 * the metadata given) unless an unconfirmed one exists, and e-mails an invitation whose link confirms the
 * address and signs the user in. A confirmed address is 422 email_exists.
 */
export function mountInvite(app: Hono<AuthEnv>, ctx: StackContext): void {
  app.post('/invite', async (c) => {
    requireAdmin(c);
    const body = await readBody(c, InviteBody);
    const email = validEmail(body.email);
    const redirectTo = resolveRedirect(ctx.config, redirectParam(c));
    const { user, mail } = await ctx.db.transaction(async (tx) => {
      let invited = await findUserByEmail(tx, email);
      if (invited?.email_confirmed_at) {
        throw authError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      invited ??= await createUser(tx, {
        email,
        password: null,
        userMetadata: body.data ?? {},
        confirmed: false,
        identityInMetadata: false,
      });
      await audit(tx, 'user_invited', { id: invited.id, email }, clientIp(c), { by: 'service_role' });
      const prepared = await prepareAuthEmail(ctx, tx, 'invite', invited, email, redirectTo, null);
      await tx.query('update auth.users set confirmation_sent_at = now() where id = $1', [invited.id]);
      return {
        user: await userJson(tx, (await findUserById(tx, invited.id)) ?? invited),
        mail: prepared.mail,
      };
    });
    await ctx.mailer.send(mail);
    return c.json(user);
  });
}
