import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { CheckCircle2, Fingerprint, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';

import { MAX_DEEP_LINK_LENGTH } from '../../../../../shared/deep-links.ts';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { BIOMETRIC_MESSAGES, biometricErrorMessage } from '../lib/biometric-messages.ts';
import { decodeRelayFragment, returnErrorLink, returnLink, type DecodedRelay } from '../lib/relay-codec.ts';

type Status =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'done'; href: string }
  | { kind: 'error'; message: string };

const readFragment = (): DecodedRelay =>
  typeof window === 'undefined'
    ? { ok: false, reason: 'no page' }
    : decodeRelayFragment(window.location.hash, window.location.hostname);

function ReturnLink({ href, children }: { href: string; children: string }) {
  return (
    <Button asChild className="w-full">
      <a href={href}>{children}</a>
    </Button>
  );
}

/**
 * The relay page's body (/auth/webauthn-relay): runs the desktop app's WebAuthn ceremony on this web origin,
 * after a click (Safari needs the gesture), and returns the answer through a vigil://auth/webauthn link.
 */
export function WebauthnRelayPanel() {
  const [decoded] = useState(readFragment);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  useEffect(() => {
    // The request stays in memory only: out of the address bar and the history entry.
    if (window.location.hash) {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, []);

  if (!decoded.ok) {
    return (
      <Alert variant="destructive" data-testid="relay-invalid">
        <XCircle className="size-4" aria-hidden />
        <AlertTitle>This link cannot be used</AlertTitle>
        <AlertDescription>
          <p>{BIOMETRIC_MESSAGES.relayInvalid}</p>
          <p className="text-xs">({decoded.reason})</p>
        </AlertDescription>
      </Alert>
    );
  }
  const { request } = decoded;
  const cancelHref = returnErrorLink(request.state, 'cancelled');
  if (!browserSupportsWebAuthn()) {
    return (
      <div className="space-y-4">
        <Alert variant="warning" data-testid="webauthn-unsupported">
          <XCircle className="size-4" aria-hidden />
          <AlertTitle>Unsupported browser</AlertTitle>
          <AlertDescription>{BIOMETRIC_MESSAGES.unsupported}</AlertDescription>
        </Alert>
        <ReturnLink href={returnErrorLink(request.state, 'unsupported')}>Return to Vigil</ReturnLink>
      </div>
    );
  }

  const confirm = async () => {
    setStatus({ kind: 'working' });
    try {
      const response =
        request.mode === 'register'
          ? await startRegistration({ optionsJSON: request.options })
          : await startAuthentication({ optionsJSON: request.options });
      const href = returnLink(request.state, response);
      // The app refuses longer links; saying so here beats a silent refusal there.
      if (href.length > MAX_DEEP_LINK_LENGTH) {
        setStatus({ kind: 'error', message: 'Your device answered with more data than Vigil accepts.' });
        return;
      }
      setStatus({ kind: 'done', href });
      window.location.assign(href);
    } catch (error) {
      setStatus({ kind: 'error', message: biometricErrorMessage(error) });
    }
  };

  if (status.kind === 'done') {
    return (
      <div className="space-y-4">
        <Alert data-testid="relay-done">
          <CheckCircle2 className="size-4" aria-hidden />
          <AlertTitle>Confirmed</AlertTitle>
          <AlertDescription>{BIOMETRIC_MESSAGES.relayDone}</AlertDescription>
        </Alert>
        <ReturnLink href={status.href}>Return to Vigil</ReturnLink>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {status.kind === 'error' && (
        <Alert variant="destructive" data-testid="relay-error">
          <XCircle className="size-4" aria-hidden />
          <AlertTitle>Confirmation failed</AlertTitle>
          <AlertDescription>{status.message}</AlertDescription>
        </Alert>
      )}
      <p className="text-sm text-muted-foreground">
        {request.mode === 'register' ? (
          <>
            This adds this device as a second factor for{' '}
            <strong className="break-all text-foreground">{request.options.user.name}</strong>.
          </>
        ) : (
          'This completes your sign-in to the Vigil desktop app.'
        )}{' '}
        Only continue if you started this in the Vigil app just now.
      </p>
      <div className="flex flex-col gap-2">
        <Button disabled={status.kind === 'working'} onClick={() => void confirm()}>
          <Fingerprint aria-hidden />{' '}
          {status.kind === 'working'
            ? 'Follow your device prompts...'
            : status.kind === 'error'
              ? 'Try again'
              : 'Confirm with biometrics'}
        </Button>
        <Button asChild variant="outline">
          <a href={cancelHref}>Cancel and return to Vigil</a>
        </Button>
      </div>
    </div>
  );
}
