import { useQueryClient } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { Fingerprint, KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { Alert, AlertDescription } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { supabase } from '../../../lib/supabase.ts';
import { securityKeys, syncTwoFactorState, useSecurityState } from '../api/security-state.ts';
import { TotpEnrolment } from './totp-enrolment.tsx';

/** /dashboard/security-settings: the two-factor state and the second factors, with add and remove. */
export function SecuritySettingsPanel() {
  const { data, isPending, error } = useSecurityState();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  const refresh = async () => {
    await syncTwoFactorState().catch((e: unknown) => setMessage(e instanceof Error ? e.message : String(e)));
    // A second step changes the access token, and so the state's key: that key's first fetch may have read
    // two_factor_auth before the sync. An invalidation would join that fetch (TanStack Query cancels only a
    // refetch of data it already has), so cancel it first and read afresh.
    await queryClient.cancelQueries({ queryKey: securityKeys.all });
    await queryClient.invalidateQueries({ queryKey: securityKeys.all });
  };

  const remove = async (factor: Factor) => {
    const client = await supabase();
    // Removing a verified factor needs the second step (aal2) in this very session, read now rather than
    // from the page's data: ask for it first, then come back.
    const { data: assurance } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    if (factor.status === 'verified' && assurance?.currentLevel !== 'aal2') {
      void navigate('/auth/mfa', { state: { from: { pathname: '/dashboard/security-settings' } } });
      return;
    }
    const { error: removeError } = await client.auth.mfa.unenroll({ factorId: factor.id });
    if (removeError) {
      setMessage(removeError.message);
      return;
    }
    await refresh();
  };

  if (isPending) {
    return <FullPageSpinner />;
  }
  const enabled = data?.twoFactor?.is_enabled ?? false;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Security Settings</h1>
      {(message || error) && (
        <Alert variant="destructive">
          <AlertDescription>{message ?? error?.message}</AlertDescription>
        </Alert>
      )}
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-lg">
            {enabled ? (
              <ShieldCheck className="size-5 text-green-500" aria-hidden />
            ) : (
              <ShieldOff className="size-5" aria-hidden />
            )}
            Two-factor authentication:{' '}
            <span data-testid="two-factor-state">{enabled ? 'Enabled' : 'Disabled'}</span>
          </CardTitle>
          <CardDescription>
            {enabled
              ? `Method: ${data?.twoFactor?.method === 'totp' ? 'authenticator app' : 'biometric'}`
              : 'Add a second factor to protect your account.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="divide-y" data-testid="factor-list">
            {(data?.factors ?? []).map((factor) => (
              <li key={factor.id} className="flex items-center justify-between gap-4 py-3">
                <span className="flex items-center gap-2">
                  {factor.factor_type === 'webauthn' ? (
                    <Fingerprint className="size-4" aria-hidden />
                  ) : (
                    <KeyRound className="size-4" aria-hidden />
                  )}
                  {factor.friendly_name || factor.factor_type}
                  <Badge variant={factor.status === 'verified' ? 'default' : 'secondary'}>
                    {factor.status}
                  </Badge>
                </span>
                <Button variant="outline" size="sm" onClick={() => void remove(factor)}>
                  Remove
                </Button>
              </li>
            ))}
            {data?.factors.length === 0 && (
              <li className="py-3 text-sm text-muted-foreground">No second factors yet.</li>
            )}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void navigate('/auth/biometric-setup')}>
              <Fingerprint aria-hidden /> Add Biometric
            </Button>
            <TotpEnrolment onDone={() => void refresh()} onError={setMessage} />
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
