import type { Hono } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { audit } from './audit.ts';
import { authError } from './errors.ts';
import type { AuthEnv } from './guard.ts';
import { clientIp, readBody } from './request.ts';
import { factorJson, type FactorJsonRow } from './user-json.ts';
import type { UserRow } from './users.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UpdateFactor = z.object({
  friendly_name: z.string().max(1024).optional(),
  phone: z.string().optional(),
});

async function loadFactor(tx: Queryable, user: UserRow, id: string): Promise<FactorJsonRow> {
  if (!UUID.test(id)) {
    throw authError(404, 'validation_failed', 'factor_id must be an UUID');
  }
  const { rows } = await tx.query<FactorJsonRow>(
    'select * from auth.mfa_factors where id = $1 and user_id = $2',
    [id, user.id],
  );
  const factor = rows[0];
  if (!factor) {
    throw authError(404, 'mfa_factor_not_found', 'Factor not found');
  }
  return factor;
}

/**
 * The admin factor routes (supabase.auth.admin.mfa.*), behind mountAdmin's service-role guard: a user's
 * factors, renaming one, deleting one (which answers the deleted factor).
 */
export function mountAdminFactors(
  app: Hono<AuthEnv>,
  ctx: StackContext,
  loadUser: (id: string) => Promise<UserRow>,
): void {
  app.get('/admin/users/:id/factors', async (c) => {
    const user = await loadUser(c.req.param('id'));
    const { rows } = await ctx.db.query<FactorJsonRow>(
      'select * from auth.mfa_factors where user_id = $1 order by created_at',
      [user.id],
    );
    return c.json(rows.map(factorJson));
  });

  app.put('/admin/users/:id/factors/:factor', async (c) => {
    const user = await loadUser(c.req.param('id'));
    const body = await readBody(c, UpdateFactor);
    const updated = await ctx.db.transaction(async (tx) => {
      const factor = await loadFactor(tx, user, c.req.param('factor'));
      if (body.friendly_name) {
        await tx.query('update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1', [
          factor.id,
          body.friendly_name,
        ]);
      }
      await audit(tx, 'factor_updated', user, clientIp(c), { factor_id: factor.id, by: 'service_role' });
      return loadFactor(tx, user, factor.id);
    });
    return c.json(factorJson(updated));
  });

  app.delete('/admin/users/:id/factors/:factor', async (c) => {
    const user = await loadUser(c.req.param('id'));
    const deleted = await ctx.db.transaction(async (tx) => {
      const factor = await loadFactor(tx, user, c.req.param('factor'));
      await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
      await audit(tx, 'factor_deleted', user, clientIp(c), { factor_id: factor.id, by: 'service_role' });
      return factor;
    });
    return c.json(factorJson(deleted));
  });
}
