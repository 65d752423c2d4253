// The two-factor-auth edge function (docs/product.md §7): get_challenge, verify_registration, sync_state.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

import { functionErrorBody } from '../../../lib/function-error.ts';
import { supabase } from '../../../lib/supabase.ts';

export interface RegistrationChallenge {
  challenge: string;
  factorId: string;
  expiresAt: string;
  options: PublicKeyCredentialCreationOptionsJSON;
}

export interface RegistrationResult {
  verified: boolean;
  factorId: string;
  session: { access_token: string; refresh_token: string };
}

async function invoke<T>(body: Record<string, unknown>, fallback: string): Promise<T> {
  const { data, error } = (await (await supabase()).functions.invoke('two-factor-auth', { body })) as {
    data: T | null;
    error: unknown;
  };
  if (error || !data) {
    throw new Error((await functionErrorBody(error)) ?? fallback);
  }
  return data;
}

export const getRegistrationChallenge = () =>
  invoke<RegistrationChallenge>({ action: 'get_challenge' }, 'Failed to receive authentication challenge');

export const verifyRegistration = (credential: RegistrationResponseJSON, userId: string) =>
  invoke<RegistrationResult>(
    { action: 'verify_registration', credential, userId },
    'Biometric registration failed',
  );

export const syncTwoFactorState = () =>
  invoke<{ enabled: boolean; method: 'biometric' | 'totp' }>(
    { action: 'sync_state' },
    'Two-factor state could not be updated',
  );
