import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** GoTrue's audit actions (auth.audit_log_entries payload.action) that this server records. */
export type AuditAction =
  | 'user_signedup'
  | 'user_confirmation_requested'
  | 'user_recovery_requested'
  | 'user_reauthenticate_requested'
  | 'login'
  | 'logout'
  | 'token_refreshed'
  | 'token_revoked'
  | 'user_modified'
  | 'user_updated_password'
  | 'user_deleted'
  | 'user_repeated_signup'
  | 'factor_in_progress'
  | 'verification_attempted'
  | 'factor_unenrolled'
  | 'user_invited'
  | 'factor_updated'
  | 'factor_deleted';

const LOG_TYPE: Record<AuditAction, string> = {
  user_signedup: 'team',
  user_confirmation_requested: 'user',
  user_recovery_requested: 'user',
  user_reauthenticate_requested: 'user',
  login: 'account',
  logout: 'account',
  token_refreshed: 'token',
  token_revoked: 'token',
  user_modified: 'user',
  user_updated_password: 'user',
  user_deleted: 'team',
  user_repeated_signup: 'user',
  factor_in_progress: 'factor',
  verification_attempted: 'factor',
  factor_unenrolled: 'factor',
  user_invited: 'team',
  factor_updated: 'factor',
  factor_deleted: 'factor',
};

/** Appends one entry to auth.audit_log_entries in GoTrue's payload shape, inside the caller's transaction. */
export async function audit(
  tx: Queryable,
  action: AuditAction,
  actor: { id: string; email: string | null },
  ip: string,
  traits: Record<string, unknown> = {},
): Promise<void> {
  const payload = {
    actor_id: actor.id,
    actor_username: actor.email ?? '',
    actor_via_sso: false,
    log_type: LOG_TYPE[action],
    action,
    traits,
  };
  await tx.query('insert into auth.audit_log_entries (id, payload, ip_address) values ($1, $2, $3)', [
    randomUUID(),
    JSON.stringify(payload),
    ip.slice(0, 64),
  ]);
}
