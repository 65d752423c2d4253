import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { toDate, type Stamp, type UserRow } from './users.ts';

const iso = (d: Stamp | null | undefined) => (d ? toDate(d).toISOString() : undefined);

/** Drops undefined fields, like Go's `omitempty` on GoTrue's models. */
function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Stamp | null;
  created_at: Stamp;
  updated_at: Stamp;
  email: string | null;
}
export interface FactorJsonRow {
  id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  created_at: Stamp;
  updated_at: Stamp;
  last_challenged_at: Stamp | null;
  phone: string | null;
}

/** GoTrue's models.User as JSON: `identities` always, `factors` only when there are any. */
export async function userJson(tx: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const identities = await tx.query<IdentityRow>(
    'select * from auth.identities where user_id = $1 order by created_at',
    [user.id],
  );
  const factors = await tx.query<FactorJsonRow>(
    'select * from auth.mfa_factors where user_id = $1 order by created_at',
    [user.id],
  );
  return compact({
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at ?? user.email_confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    invited_at: iso(user.invited_at),
    reauthentication_sent_at: iso(user.reauthentication_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: identities.rows.map((i) =>
      compact({
        identity_id: i.id,
        id: i.provider_id,
        user_id: i.user_id,
        identity_data: i.identity_data,
        provider: i.provider,
        last_sign_in_at: iso(i.last_sign_in_at),
        created_at: iso(i.created_at),
        updated_at: iso(i.updated_at),
        email: i.email ?? undefined,
      }),
    ),
    factors: factors.rows.length === 0 ? undefined : factors.rows.map(factorJson),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
    banned_until: iso(user.banned_until),
  });
}

/** GoTrue's models.Factor as JSON. */
export const factorJson = (f: FactorJsonRow) => ({
  id: f.id,
  friendly_name: f.friendly_name ?? '',
  factor_type: f.factor_type,
  status: f.status,
  created_at: iso(f.created_at),
  updated_at: iso(f.updated_at),
  last_challenged_at: iso(f.last_challenged_at) ?? null,
  phone: f.phone ?? '',
});

/**
 * What GoTrue answers when a sign-up address already belongs to a confirmed user: a plausible user with a
 * random id and no identities, so the response does not reveal which addresses are registered.
 */
export function obfuscatedUser(email: string, metadata: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: 'authenticated',
    email: email.toLowerCase(),
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: metadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
