import { randomUUID } from 'node:crypto';
import { bcryptCompare, bcryptHash } from './password-pool.ts';
import type { Queryable } from '../db/database.ts';

/** A timestamp as the engine returns it: PGlite gives text, node-postgres may give a Date. */
export type Stamp = string | Date;
export const toDate = (v: Stamp) => (v instanceof Date ? v : new Date(v));

/** The auth.users columns the API reads. */
export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Stamp | null;
  invited_at: Stamp | null;
  confirmation_sent_at: Stamp | null;
  recovery_sent_at: Stamp | null;
  email_change: string | null;
  email_change_sent_at: Stamp | null;
  last_sign_in_at: Stamp | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Stamp;
  updated_at: Stamp;
  phone: string | null;
  phone_confirmed_at: Stamp | null;
  confirmed_at: Stamp | null;
  banned_until: Stamp | null;
  reauthentication_sent_at: Stamp | null;
  is_anonymous: boolean;
  deleted_at: Stamp | null;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, confirmation_sent_at,
  recovery_sent_at, email_change, email_change_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data,
  created_at, updated_at, phone, phone_confirmed_at, confirmed_at, banned_until, reauthentication_sent_at,
  is_anonymous, deleted_at`;

export const BCRYPT_COST = 10;
export const hashPassword = (password: string) => bcryptHash(password, BCRYPT_COST);

let dummyHash: Promise<string> | null = null;

/**
 * bcrypt compare that is false (not an error) for missing users and users without a password. Those
 * still pay for one comparison, so response time does not reveal which addresses have an account.
 */
export async function passwordMatches(user: UserRow | null, password: string): Promise<boolean> {
  if (!user?.encrypted_password) {
    dummyHash ??= hashPassword('vigil-timing-equaliser');
    await bcryptCompare(password, await dummyHash);
    return false;
  }
  return bcryptCompare(password, user.encrypted_password);
}

export async function findUserById(tx: Queryable, id: string): Promise<UserRow | null> {
  // A malformed id is "no such user", never a Postgres cast error.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    return null;
  }
  const { rows } = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findUserByEmail(tx: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and is_sso_user = false`,
    [email],
  );
  return rows[0] ?? null;
}

export async function listUserRows(
  tx: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const { rows } = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users order by created_at desc, id limit $1 offset $2`,
    [limit, offset],
  );
  const count = await tx.query<{ n: number }>('select count(*)::int as n from auth.users');
  return { rows, total: count.rows[0]?.n ?? 0 };
}

export interface NewUser {
  /** An address, or null for a user the admin API creates with a phone number only. */
  email: string | null;
  /** An E.164 number without its +, as GoTrue stores it; only the admin API sets one. */
  phone?: string;
  password: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmed: boolean;
  role?: string;
  /**
   * Whether the identity's claims (sub, email, email_verified, phone_verified) join the user's metadata, as
   * they do for a user who signs up. The admin API (create, invite, generate_link) keeps exactly the
   * metadata it was given, and its identity says email_verified false until a link is followed.
   */
  identityInMetadata?: boolean;
}

/** Inserts the user and its identities (email, and phone when given) the way GoTrue does. */
export async function createUser(tx: Queryable, input: NewUser): Promise<UserRow> {
  const id = randomUUID();
  const email = input.email?.toLowerCase() ?? null;
  const phone = input.phone ?? null;
  const bySignup = input.identityInMetadata ?? true;
  const emailClaims = {
    sub: id,
    email,
    email_verified: bySignup && input.confirmed,
    phone_verified: false,
  };
  const providers = [...(email ? ['email'] : []), ...(phone ? ['phone'] : [])];
  const hash = input.password === null ? null : await hashPassword(input.password);
  const appMetadata = { provider: providers[0], providers, ...input.appMetadata };
  await tx.query(
    `insert into auth.users (id, aud, role, email, phone, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data)
     values ($1, 'authenticated', $2, $3, $4, $5, case when $6 then now() end, $7, $8)`,
    [
      id,
      input.role ?? 'authenticated',
      email,
      phone,
      hash,
      input.confirmed,
      appMetadata,
      bySignup ? { ...input.userMetadata, ...emailClaims } : input.userMetadata,
    ],
  );
  const identity = `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
    values ($1, $2, $3, $4, now())`;
  if (email) {
    await tx.query(identity, [id, id, emailClaims, 'email']);
  }
  if (phone) {
    await tx.query(identity, [
      id,
      id,
      { sub: id, phone, email_verified: false, phone_verified: false },
      'phone',
    ]);
  }
  const user = await findUserById(tx, id);
  if (!user) {
    throw new Error('user vanished after insert');
  }
  return user;
}

/** An anonymous user as GoTrue signs one up: no e-mail, no password, no identity, the metadata given. */
export async function createAnonymousUser(
  tx: Queryable,
  metadata: Record<string, unknown>,
): Promise<UserRow> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.users (id, aud, role, raw_app_meta_data, raw_user_meta_data, is_anonymous)
     values ($1, 'authenticated', 'authenticated', $2, $3, true)`,
    [id, { provider: 'anonymous', providers: ['anonymous'] }, metadata],
  );
  const user = await findUserById(tx, id);
  if (!user) {
    throw new Error('user vanished after insert');
  }
  return user;
}

/**
 * Marks the e-mail verified in the user row and its metadata, and (unless an admin confirms it, which GoTrue
 * leaves to the identity's own verification) in its email identity.
 */
export async function confirmEmail(tx: Queryable, userId: string, identity = true): Promise<void> {
  await tx.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now(),
            raw_user_meta_data = raw_user_meta_data || '{"email_verified": true}'::jsonb
      where id = $1`,
    [userId],
  );
  if (!identity) {
    return;
  }
  await tx.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId],
  );
}

export const isBanned = (u: UserRow) =>
  u.banned_until !== null && toDate(u.banned_until).getTime() > Date.now();
