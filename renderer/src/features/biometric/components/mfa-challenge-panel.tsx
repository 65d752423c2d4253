import type { Factor } from '@supabase/supabase-js';
import { Fingerprint, KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { platform } from '../../../lib/platform/index.ts';
import { supabase } from '../../../lib/supabase.ts';
import { challengeWebauthnFactor, verifyWebauthnFactor } from '../api/mfa-webauthn.ts';
import { useHandoff } from '../hooks/use-handoff.ts';
import { biometricErrorMessage } from '../lib/biometric-messages.ts';
import { HandoffError } from '../lib/desktop-handoff.ts';
import { HandoffNotice } from './handoff-notice.tsx';

/**
 * The second sign-in step (aal1 → aal2): an assertion from the registered platform authenticator, or a
 * code from the authenticator app. `onVerified` runs once the session carries aal2. The desktop app's pages
 * (app://) may not use WebAuthn: there the assertion is made in the system browser (useHandoff).
 */
export function MfaChallengePanel({ onVerified }: { onVerified: () => void }) {
  const [factors, setFactors] = useState<{ webauthn: Factor[]; totp: Factor[] } | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handoff = useHandoff();
  const onDesktop = platform.kind === 'desktop';

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

  const verifyInBrowser = async (factorId: string) => {
    const webUrl = await platform.webUrl();
    if (!webUrl) {
      throw new HandoffError('unavailable');
    }
    const challenge = await challengeWebauthnFactor(factorId, webUrl);
    const deadline = Math.min(challenge.expiresAt, Date.now() + (challenge.options.timeout ?? 60_000));
    return verifyWebauthnFactor(factorId, challenge, await handoff.authenticate(challenge.options, deadline));
  };

  const biometric = factors?.webauthn[0];
  const totp = factors?.totp[0];
  return (
    <div className="space-y-4">
      {error && (
        <Alert variant="destructive" data-testid="mfa-error">
          <AlertTitle>Verification failed</AlertTitle>
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      )}
      {handoff.waiting && (
        <HandoffNotice waiting={handoff.waiting} onCancel={handoff.cancel} onReopen={handoff.reopen} />
      )}
      {biometric && (
        <Button
          className="w-full"
          disabled={busy}
          onClick={() =>
            void run(async () =>
              onDesktop
                ? verifyInBrowser(biometric.id)
                : (await supabase()).auth.mfa.webauthn.authenticate({ factorId: biometric.id }),
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
      {factors && !biometric && !totp && (
        <p className="text-sm text-muted-foreground">No verified second factor was found.</p>
      )}
    </div>
  );
}
