import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { CheckCircle2, Fingerprint, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { platform } from '../../../lib/platform/index.ts';
import { supabase } from '../../../lib/supabase.ts';
import { getRegistrationChallenge, verifyRegistration } from '../api/two-factor-auth.ts';
import { useHandoff } from '../hooks/use-handoff.ts';
import { BIOMETRIC_MESSAGES, biometricErrorMessage } from '../lib/biometric-messages.ts';
import { HandoffError } from '../lib/desktop-handoff.ts';
import { HandoffNotice } from './handoff-notice.tsx';

type Status =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'done' }
  | { kind: 'error'; message: string }
  | { kind: 'handoff-failed'; message: string };

/**
 * Registers the device's platform authenticator as a second factor through two-factor-auth (docs/product.md §2).
 * The desktop app's pages cannot run WebAuthn: there the ceremony runs in the system browser (useHandoff).
 */
export function BiometricSetupPanel() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const handoff = useHandoff();
  const onDesktop = platform.kind === 'desktop';
  // On the desktop the browser's support is only known from the hand-off's answer.
  const supported = onDesktop || browserSupportsWebAuthn();

  const register = async () => {
    if (!user) {
      return;
    }
    setStatus({ kind: 'working' });
    let challenge;
    try {
      challenge = await getRegistrationChallenge();
    } catch (error) {
      // The function's own refusal (e.g. AAL2 required) is more useful than the generic text.
      setStatus({
        kind: 'error',
        message: error instanceof Error ? error.message : BIOMETRIC_MESSAGES.noChallenge,
      });
      return;
    }
    if (!challenge.challenge) {
      setStatus({ kind: 'error', message: BIOMETRIC_MESSAGES.noChallenge });
      return;
    }
    try {
      const credential = onDesktop
        ? await handoff.register(challenge.options, Date.parse(challenge.expiresAt))
        : await startRegistration({ optionsJSON: challenge.options });
      const result = await verifyRegistration(credential, user.id);
      // The verified factor upgraded the session to aal2: keep using it in this client.
      await (await supabase()).auth.setSession(result.session);
      setStatus({ kind: 'done' });
    } catch (error) {
      // Unsupported, on the desktop: the browser could not be reached, or did not answer in time.
      const handoffFailed = error instanceof HandoffError && error.reason !== 'cancelled';
      setStatus({ kind: handoffFailed ? 'handoff-failed' : 'error', message: biometricErrorMessage(error) });
    }
  };

  return (
    <div className="space-y-4">
      {!supported && (
        <Alert variant="warning" data-testid="webauthn-unsupported">
          <XCircle className="size-4" aria-hidden />
          <AlertTitle>Unsupported device</AlertTitle>
          <AlertDescription>{BIOMETRIC_MESSAGES.unsupported}</AlertDescription>
        </Alert>
      )}
      {status.kind === 'handoff-failed' && (
        <Alert variant="warning" data-testid="webauthn-unsupported">
          <XCircle className="size-4" aria-hidden />
          <AlertTitle>Browser confirmation did not complete</AlertTitle>
          <AlertDescription>{status.message}</AlertDescription>
        </Alert>
      )}
      {handoff.waiting && (
        <HandoffNotice waiting={handoff.waiting} onCancel={handoff.cancel} onReopen={handoff.reopen} />
      )}
      {status.kind === 'done' && (
        <Alert data-testid="biometric-success">
          <CheckCircle2 className="size-4" aria-hidden />
          <AlertTitle>{BIOMETRIC_MESSAGES.success}</AlertTitle>
          <AlertDescription>Your device now confirms it is you when you sign in to Vigil.</AlertDescription>
        </Alert>
      )}
      {status.kind === 'error' && (
        <Alert variant="destructive" data-testid="biometric-error">
          <XCircle className="size-4" aria-hidden />
          <AlertTitle>Biometric setup failed</AlertTitle>
          <AlertDescription>{status.message}</AlertDescription>
        </Alert>
      )}
      <p className="text-sm text-muted-foreground">
        Use your device&apos;s fingerprint reader, face recognition or screen lock as a second step when
        signing in.
      </p>
      <div className="flex flex-col gap-2">
        {status.kind === 'done' ? (
          <Button onClick={() => void navigate('/dashboard/security-settings')}>
            Go to Security Settings
          </Button>
        ) : (
          <Button disabled={!supported || status.kind === 'working'} onClick={() => void register()}>
            <Fingerprint aria-hidden />{' '}
            {status.kind !== 'working'
              ? 'Register Biometric'
              : onDesktop
                ? 'Waiting for your browser...'
                : 'Follow your device prompts...'}
          </Button>
        )}
        <Button variant="outline" onClick={() => void navigate('/dashboard/security-settings')}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
