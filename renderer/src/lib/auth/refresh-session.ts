// The tab-visible session check (docs/product.md §4.1: a session is refreshed when the tab becomes visible; a non-retryable
// refresh failure removes the session). supabase-js 2.119 keeps a session whose refresh was refused while
// its access token has not expired yet ("proactive" refresh), so a session revoked on the server (signed
// out everywhere, password changed) would stay signed in here for up to an hour: this removes it at once.
// No value import from supabase-js here: the landing page must not load it (errors are told by name).
import type { AuthError, Session } from '@supabase/supabase-js';

export interface RefreshingAuth {
  getSession(): Promise<{ data: { session: Session | null } }>;
  refreshSession(): Promise<{ error: AuthError | null }>;
  signOut(options: { scope: 'local' }): Promise<unknown>;
}

export type RefreshOutcome = 'no-session' | 'refreshed' | 'kept' | 'signed-out';

/** Errors after which the session is still good: the network or server failed, or another change won. */
const RETRYABLE = new Set(['AuthRetryableFetchError', 'AuthRefreshDiscardedError']);

export function isRetryableRefreshError(error: Pick<AuthError, 'name'>): boolean {
  return RETRYABLE.has(error.name);
}

export async function refreshOrSignOut(auth: RefreshingAuth): Promise<RefreshOutcome> {
  const { data } = await auth.getSession();
  // Guard: nothing to refresh for someone signed out (a tab opened on the landing page, say).
  if (!data.session) {
    return 'no-session';
  }
  const { error } = await auth.refreshSession();
  if (!error) {
    return 'refreshed';
  }
  // Guard: a failure worth retrying keeps the session; the next tick or visibility change tries again.
  if (isRetryableRefreshError(error)) {
    return 'kept';
  }
  // The refresh token was refused for good: drop this device's session (SIGNED_OUT reaches the listeners).
  await auth.signOut({ scope: 'local' });
  return 'signed-out';
}
