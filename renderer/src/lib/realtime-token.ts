// supabase-js gives realtime a new access token on sign-in and on refresh, but not when the session passes
// its second factor (MFA_CHALLENGE_VERIFIED). The channels would keep the password-only (aal1) token, and
// row-level security shows such a token nothing of a user with a second factor: no live alerts until the
// next refresh, up to an hour later. This hands the new token over at once.
import type { SupabaseClient } from '@supabase/supabase-js';

export function followSecondFactor(client: Pick<SupabaseClient, 'auth' | 'realtime'>): () => void {
  const { data } = client.auth.onAuthStateChange((event) => {
    if (event === 'MFA_CHALLENGE_VERIFIED') {
      // supabase-js holds its auth lock during this callback, and setAuth() reads the session: after it.
      setTimeout(() => void client.realtime.setAuth(), 0);
    }
  });
  return () => data.subscription.unsubscribe();
}
