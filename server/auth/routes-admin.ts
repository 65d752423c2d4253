import type { Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { audit } from './audit.ts';
import { authError } from './errors.ts';
import { requireAdmin, type AuthEnv } from './guard.ts';
import { clientIp, readBody } from './request.ts';
import { checkPassword } from './routes-signup.ts';
import { mergeUserMetadata } from './routes-user.ts';
import { Email, Metadata, validEmail, validPhone } from './schemas.ts';
import { mountAdminFactors } from './routes-admin-factors.ts';
import { userJson } from './user-json.ts';
import {
  confirmEmail,
  createUser,
  findUserByEmail,
  findUserById,
  hashPassword,
  listUserRows,
} from './users.ts';

const CreateUser = z.object({
  email: z.string().max(1024).optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(1024).optional(),
  email_confirm: z.boolean().optional(),
  phone_confirm: z.boolean().optional(),
  user_metadata: Metadata.optional(),
  app_metadata: Metadata.optional(),
  role: z.string().max(64).optional(),
});
const UpdateUser = z.object({
  email: Email.optional(),
  password: z.string().max(1024).optional(),
  email_confirm: z.boolean().optional(),
  user_metadata: Metadata.optional(),
  app_metadata: Metadata.optional(),
  role: z.string().max(64).optional(),
  ban_duration: z
    .string()
    .regex(/^(none|\d+(ns|us|µs|ms|s|m|h))$/)
    .optional(),
});
// auth-js sends `page=&per_page=` when the caller gives neither: empty means the default, as in GoTrue.
const emptyIsUnset = (v: unknown) => (v === '' ? undefined : v);
const Page = z.object({
  page: z.preprocess(emptyIsUnset, z.coerce.number().int().min(1).max(100000).default(1)),
  per_page: z.preprocess(emptyIsUnset, z.coerce.number().int().min(1).max(1000).default(50)),
});

const DURATION_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** The admin subset (service role only) behind supabase.auth.admin.*. */
export function mountAdmin(app: Hono<AuthEnv>, ctx: StackContext): void {
  const adminOnly: MiddlewareHandler<AuthEnv> = async (c, next) => {
    requireAdmin(c);
    await next();
  };
  app.use('/admin/*', adminOnly);
  // GoTrue's loadUser: an id that is no UUID is refused before any look-up.
  const load = async (id: string) => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      throw authError(404, 'validation_failed', 'user_id must be an UUID');
    }
    const user = await findUserById(ctx.db, id);
    if (!user) {
      throw authError(404, 'user_not_found', 'User not found');
    }
    return user;
  };
  mountAdminFactors(app, ctx, load);

  app.get('/admin/users', async (c) => {
    const q = Page.safeParse(c.req.query());
    if (!q.success) {
      throw authError(400, 'validation_failed', 'page and per_page must be positive integers');
    }
    const { page, per_page: perPage } = q.data;
    const { rows, total } = await listUserRows(ctx.db, perPage, (page - 1) * perPage);
    const users = await Promise.all(rows.map((u) => userJson(ctx.db, u)));
    const base = `${ctx.config.publicUrl}/auth/v1/admin/users`;
    const last = Math.max(1, Math.ceil(total / perPage));
    const links = [`<${base}?page=${last}&per_page=${perPage}>; rel="last"`];
    if (page < last) {
      links.unshift(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    }
    c.header('x-total-count', String(total));
    c.header('link', links.join(', '));
    return c.json({ users, aud: 'authenticated' });
  });

  app.post('/admin/users', async (c) => {
    const body = await readBody(c, CreateUser);
    if (!body.email && !body.phone) {
      throw authError(400, 'validation_failed', 'Cannot create a user without either an email or phone');
    }
    // The phone provider's switch does not govern the admin API: GoTrue creates phone users regardless.
    const email = body.email ? validEmail(body.email) : null;
    const phone = body.phone ? validPhone(body.phone) : undefined;
    if (body.password !== undefined) {
      checkPassword(ctx, body.password);
    }
    const user = await ctx.db.transaction(async (tx) => {
      if (email && (await findUserByEmail(tx, email))) {
        throw authError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      if (phone && (await tx.query('select 1 from auth.users where phone = $1', [phone])).rows.length > 0) {
        throw authError(422, 'phone_exists', 'Phone number already registered by another user');
      }
      // The metadata exactly as given; confirming adds email_verified to it, as GoTrue's Confirm does.
      const created = await createUser(tx, {
        email,
        ...(phone ? { phone } : {}),
        password: body.password ?? null,
        userMetadata: body.user_metadata ?? {},
        appMetadata: body.app_metadata ?? {},
        confirmed: false,
        role: body.role,
        identityInMetadata: false,
      });
      if (body.email_confirm && email) {
        await confirmEmail(tx, created.id, false);
      }
      if (body.phone_confirm && phone) {
        await tx.query('update auth.users set phone_confirmed_at = now() where id = $1', [created.id]);
      }
      return userJson(tx, (await findUserById(tx, created.id)) ?? created);
    });
    return c.json(user);
  });

  app.get('/admin/users/:id', async (c) => c.json(await userJson(ctx.db, await load(c.req.param('id')))));

  app.put('/admin/users/:id', async (c) => {
    const body = await readBody(c, UpdateUser);
    const target = await load(c.req.param('id'));
    const updated = await ctx.db.transaction(async (tx) => {
      if (body.email && body.email.toLowerCase() !== target.email) {
        const taken = await findUserByEmail(tx, body.email);
        if (taken) {
          throw authError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        await tx.query('update auth.users set email = $2, updated_at = now() where id = $1', [
          target.id,
          body.email.toLowerCase(),
        ]);
      }
      if (body.password !== undefined) {
        checkPassword(ctx, body.password);
        await tx.query('update auth.users set encrypted_password = $2, updated_at = now() where id = $1', [
          target.id,
          await hashPassword(body.password),
        ]);
      }
      if (body.email_confirm) {
        await confirmEmail(tx, target.id, false);
      }
      if (body.user_metadata) {
        await mergeUserMetadata(tx, target.id, body.user_metadata);
      }
      if (body.app_metadata) {
        await tx.query(
          'update auth.users set raw_app_meta_data = raw_app_meta_data || $2::jsonb, updated_at = now() where id = $1',
          [target.id, JSON.stringify(body.app_metadata)],
        );
      }
      if (body.role) {
        await tx.query('update auth.users set role = $2, updated_at = now() where id = $1', [
          target.id,
          body.role,
        ]);
      }
      if (body.ban_duration) {
        const m = body.ban_duration.match(/^(\d+)(\D+)$/);
        const seconds = m ? Number(m[1]) * (DURATION_SECONDS[m[2] ?? 's'] ?? 1) : 0;
        await tx.query(
          `update auth.users set banned_until = case when $2::float8 > 0 then now() + make_interval(secs => $2::float8) end where id = $1`,
          [target.id, seconds],
        );
        if (seconds > 0) {
          // A ban ends the user's sessions at once, not at token expiry.
          await tx.query('delete from auth.sessions where user_id = $1', [target.id]);
        }
      }
      return userJson(tx, (await findUserById(tx, target.id)) ?? target);
    });
    return c.json(updated);
  });

  app.delete('/admin/users/:id', async (c) => {
    const target = await load(c.req.param('id'));
    await ctx.db.transaction(async (tx) => {
      await tx.query('delete from auth.users where id = $1', [target.id]);
      await audit(tx, 'user_deleted', { id: target.id, email: target.email }, clientIp(c), {
        by: 'service_role',
      });
    });
    return c.json({});
  });
}
