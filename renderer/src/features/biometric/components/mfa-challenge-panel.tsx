import type { Factor } from '@supabase/supabase-js';
import { Fingerprint, KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { platform } from '../../../lib/platform/index.ts';
import { supabase } from '../../../lib/supabase.ts';
import { BIOMETRIC_MESSAGES, biometricErrorMessage } from '../lib/biometric-messages.ts';

/**
 * The second sign-in step (aal1 → aal2): an assertion from the registered platform authenticator, or a
 * code from the authenticator app. `onVerified` runs once the session carries aal2.
 */
export function MfaChallengePanel({ onVerified }: { onVerified: () => void }) {
  const [factors, setFactors] = useState<{ webauthn: Factor[]; totp: Factor[] } | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      const { data, error: listError } = await (await supabase()).auth.mfa.listFactors();
      if (listError) {
        setError(listError.message);
      }
      setFactors({ webauthn: data?.webauthn ?? [], totp: data?.totp ?? [] });
    })();
  }, []);

  const run = async (step: () => Promise<{ error: Error | null }>) => {
    setBusy(true);
    setError(null);
    try {
      const { error: stepError } = await step();
      if (stepError) {
        throw stepError;
      }
      onVerified();
    } catch (caught) {
      setError(biometricErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  // The desktop app's pages (app://) may not use WebAuthn: there only the code works.
  const onDesktop = platform.kind === 'desktop';
  const biometric = onDesktop ? undefined : factors?.webauthn[0];
  const totp = factors?.totp[0];
  const biometricOnlyOnDesktop = onDesktop && !totp && (factors?.webauthn.length ?? 0) > 0;
  return (
    <div className="space-y-4">
      {error && (
        <Alert variant="destructive" data-testid="mfa-error">
          <AlertTitle>Verification failed</AlertTitle>
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      )}
      {biometric && (
        <Button
          className="w-full"
          disabled={busy}
          onClick={() =>
            void run(async () =>
              (await supabase()).auth.mfa.webauthn.authenticate({ factorId: biometric.id }),
            )
          }
        >
          <Fingerprint aria-hidden /> Verify with Biometrics
        </Button>
      )}
      {totp && (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            void run(async () =>
              (await supabase()).auth.mfa.challengeAndVerify({ factorId: totp.id, code: code.trim() }),
            );
          }}
        >
          <Label htmlFor="mfa-code">Authenticator app code</Label>
          <Input
            id="mfa-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <Button
            type="submit"
            variant="outline"
            className="w-full"
            disabled={busy || !/^\d{6}$/.test(code.trim())}
          >
            <KeyRound aria-hidden /> Verify Code
          </Button>
        </form>
      )}
      {biometricOnlyOnDesktop && (
        <Alert variant="warning" data-testid="mfa-desktop-biometric">
          <AlertTitle>{BIOMETRIC_MESSAGES.desktopTitle}</AlertTitle>
          <AlertDescription>{BIOMETRIC_MESSAGES.desktopOnlyBiometric}</AlertDescription>
        </Alert>
      )}
      {factors && !biometric && !totp && !biometricOnlyOnDesktop && (
        <p className="text-sm text-muted-foreground">No verified second factor was found.</p>
      )}
    </div>
  );
}
