import type { SupabaseClient, User } from '@supabase/supabase-js';

/**
 * sync_state: brings two_factor_auth and the stored credentials in line with the caller's verified
 * factors on the auth server (after a factor is added or removed in the security settings).
 */
export async function syncState(user: User, admin: SupabaseClient) {
  const verified = (user.factors ?? []).filter((f) => f.status === 'verified');
  const webauthnIds = verified.filter((f) => f.factor_type === 'webauthn').map((f) => f.id);
  // Credentials whose factor was removed must not linger as if they still counted.
  let stale = admin.from('webauthn_credentials').delete().eq('user_id', user.id);
  if (webauthnIds.length > 0) {
    stale = stale.not('factor_id', 'in', `(${webauthnIds.join(',')})`);
  }
  const removed = await stale;
  if (removed.error) {
    throw new Error(`webauthn_credentials cleanup failed: ${removed.error.message}`);
  }
  const enabled = verified.length > 0;
  const method = webauthnIds.length > 0 || !enabled ? 'biometric' : 'totp';
  const marked = await admin
    .from('two_factor_auth')
    .upsert({ user_id: user.id, is_enabled: enabled, method }, { onConflict: 'user_id' });
  if (marked.error) {
    throw new Error(`two_factor_auth upsert failed: ${marked.error.message}`);
  }
  return { enabled, method };
}
