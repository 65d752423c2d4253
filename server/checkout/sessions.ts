import type { Queryable } from '../db/database.ts';

/** A local checkout session (public.checkout_sessions) with the roles it sells. */
export interface LocalCheckout {
  id: string;
  user_id: string;
  role_ids: string[];
  subtotal: number;
  discount: number;
  total: number;
  success_url: string;
  cancel_url: string;
  csrf_token: string;
  status: 'open' | 'completing' | 'complete';
  expired: boolean;
  /** Offered with the free trial (the customer's first); else the first month is due now. */
  trial: boolean;
  roles: { id: string; name: string; price_monthly: number }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loadCheckout(db: Queryable, id: string): Promise<LocalCheckout | null> {
  // Anything but a uuid cannot name a session (and would be a cast error in SQL).
  if (!UUID.test(id)) {
    return null;
  }
  const { rows } = await db.query<Omit<LocalCheckout, 'roles'> & { roles: LocalCheckout['roles'] | null }>(
    `select s.id, s.user_id, s.role_ids::text[] as role_ids, s.subtotal, s.discount, s.total, s.success_url,
            s.cancel_url, s.csrf_token, s.status, s.expires_at <= now() as expired, s.trial,
            (select json_agg(json_build_object('id', r.id, 'name', r.name, 'price_monthly', r.price_monthly)
                             order by r.display_order)
               from public.agent_roles r where r.id = any (s.role_ids)) as roles
       from public.checkout_sessions s where s.id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? { ...row, roles: row.roles ?? [] } : null;
}

/**
 * Takes an open, unexpired session for completion (status 'completing'), or null when another request
 * took it first, it expired, or it is done: one session completes once, however often the form is sent.
 */
export async function claimCheckout(db: Queryable, id: string): Promise<boolean> {
  const { affectedRows } = await db.query(
    `update public.checkout_sessions set status = 'completing'
      where id = $1 and status = 'open' and expires_at > now()`,
    [id],
  );
  return affectedRows === 1;
}

export async function finishCheckout(db: Queryable, id: string, ok: boolean): Promise<void> {
  await db.query(
    ok
      ? `update public.checkout_sessions set status = 'complete', completed_at = now() where id = $1`
      : `update public.checkout_sessions set status = 'open' where id = $1 and status = 'completing'`,
    [id],
  );
}

/** The user's local customer id, created on first use (billing_customers, as with the provider). */
export async function localCustomer(db: Queryable, userId: string): Promise<string> {
  const candidate = `cus_local_${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}`;
  await db.query(
    `insert into public.billing_customers (user_id, provider_customer_id) values ($1, $2) on conflict do nothing`,
    [userId, candidate],
  );
  const { rows } = await db.query<{ provider_customer_id: string }>(
    `select provider_customer_id from public.billing_customers where user_id = $1`,
    [userId],
  );
  return rows[0]!.provider_customer_id;
}

/** The success URL with Stripe's {CHECKOUT_SESSION_ID} placeholder filled in. */
export const successUrl = (session: LocalCheckout) =>
  session.success_url.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));
