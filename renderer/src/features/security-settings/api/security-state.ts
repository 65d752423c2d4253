// The signed-in user's second factors (auth server) and two_factor_auth row, and the two-factor-auth
// function's sync_state after a factor is added or removed.
import type { Factor } from '@supabase/supabase-js';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { useAuth } from '../../../lib/auth/auth-context.ts';
import { supabase } from '../../../lib/supabase.ts';

export const securityKeys = { all: ['security-settings'] as const };

export interface SecurityState {
  factors: Factor[];
  twoFactor: { is_enabled: boolean; method: 'biometric' | 'totp' } | null;
  currentLevel: string | null;
}

export async function getSecurityState(): Promise<SecurityState> {
  const client = await supabase();
  const [factors, row, aal] = await Promise.all([
    client.auth.mfa.listFactors(),
    client.from('two_factor_auth').select('is_enabled, method').maybeSingle(),
    client.auth.mfa.getAuthenticatorAssuranceLevel(),
  ]);
  if (factors.error) {
    throw factors.error;
  }
  if (row.error) {
    throw new Error(row.error.message);
  }
  return { factors: factors.data.all, twoFactor: row.data, currentLevel: aal.data?.currentLevel ?? null };
}

/**
 * Keyed by the session's access token: the state (above all its assurance level) belongs to one session,
 * so a second step passed on /auth/mfa, or another user signing in, never shows a cached older answer.
 */
export const securityStateOptions = (accessToken: string) =>
  queryOptions({ queryKey: [...securityKeys.all, accessToken], queryFn: getSecurityState });
export const useSecurityState = () => useQuery(securityStateOptions(useAuth().session?.access_token ?? ''));

/** two_factor_auth follows the verified factors (the function also drops removed credentials). */
export async function syncTwoFactorState(): Promise<void> {
  const client = await supabase();
  const result = await client.functions.invoke<{ enabled: boolean }>('two-factor-auth', {
    body: { action: 'sync_state' },
  });
  if (result.error) {
    throw new Error('Two-factor state could not be updated');
  }
}
