import type { Queryable } from '../../db/database.ts';

/** Whether the user has a verified second factor: then aal2 is what unlocks the account's sensitive parts. */
export async function hasVerifiedFactor(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ verified: boolean }>(
    `select exists(select 1 from auth.mfa_factors where user_id = $1 and status = 'verified') as verified`,
    [userId],
  );
  return rows[0]?.verified ?? false;
}
