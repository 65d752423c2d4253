// The desktop app's side of the biometric hand-off: the app's own pages (app://vigil) may not use WebAuthn, so
// the ceremony runs on the web origin in the system browser (the relay page), and its answer returns as a
// vigil://auth/webauthn deep link carrying the state nonce generated here.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

import { BIOMETRIC_MESSAGES } from './biometric-messages.ts';
import { decodeRelayResponse, newRelayState, relayUrl } from './relay-codec.ts';

export type HandoffFailure = 'unavailable' | 'browser' | 'expired' | 'cancelled' | 'unsupported';

/** Why the hand-off ended without a credential; `message` is the catalogue's text for it. */
export class HandoffError extends Error {
  constructor(readonly reason: HandoffFailure) {
    super(
      {
        unavailable: BIOMETRIC_MESSAGES.handOffUnavailable,
        browser: BIOMETRIC_MESSAGES.handOffFailed,
        expired: BIOMETRIC_MESSAGES.handOffExpired,
        cancelled: BIOMETRIC_MESSAGES.handOffCancelled,
        unsupported: BIOMETRIC_MESSAGES.handOffBrowserUnsupported,
      }[reason],
    );
    this.name = 'HandoffError';
  }
}

/** What the hand-off needs from the platform (lib/platform's desktop implementation). */
export interface HandoffPlatform {
  webUrl(): Promise<string | null>;
  openInBrowser(url: string): Promise<boolean>;
  onRelayResult(listener: (params: Record<string, string>) => void): () => void;
}

/**
 * Waits for the deep link answering `state`. Links for another state (an older attempt, or a link someone
 * else made) are ignored; at `deadline` (the challenge's expiry) it gives up, and `signal` cancels it.
 */
export function waitForRelayResult(
  platform: Pick<HandoffPlatform, 'onRelayResult'>,
  { state, deadline, signal }: { state: string; deadline: number; signal?: AbortSignal },
): Promise<{ response: string }> {
  return new Promise((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(new HandoffError('cancelled')));
    const stop = platform.onRelayResult((params) => {
      // Only the answer to this attempt counts: anything else could replay or inject a credential.
      if (params.state !== state) {
        return;
      }
      if (params.response) {
        const response = params.response;
        finish(() => resolve({ response }));
      } else {
        finish(() => reject(new HandoffError(params.error === 'unsupported' ? 'unsupported' : 'cancelled')));
      }
    });
    const timer = setTimeout(
      () => finish(() => reject(new HandoffError('expired'))),
      Math.max(0, deadline - Date.now()),
    );
    if (signal?.aborted) {
      onAbort();
    } else {
      signal?.addEventListener('abort', onAbort);
    }
  });
}

type Ceremony =
  | { mode: 'register'; options: PublicKeyCredentialCreationOptionsJSON }
  | { mode: 'authenticate'; options: PublicKeyCredentialRequestOptionsJSON };

/** Opens the relay page for `ceremony` in the system browser and resolves to the credential it returns. */
export async function runHandoff(
  platform: HandoffPlatform,
  ceremony: { mode: 'register'; options: PublicKeyCredentialCreationOptionsJSON },
  limits: { deadline: number; signal?: AbortSignal; onOpened?: (url: string) => void },
): Promise<RegistrationResponseJSON>;
export async function runHandoff(
  platform: HandoffPlatform,
  ceremony: { mode: 'authenticate'; options: PublicKeyCredentialRequestOptionsJSON },
  limits: { deadline: number; signal?: AbortSignal; onOpened?: (url: string) => void },
): Promise<AuthenticationResponseJSON>;
export async function runHandoff(
  platform: HandoffPlatform,
  ceremony: Ceremony,
  limits: { deadline: number; signal?: AbortSignal; onOpened?: (url: string) => void },
): Promise<RegistrationResponseJSON | AuthenticationResponseJSON> {
  const webUrl = await platform.webUrl();
  if (!webUrl) {
    throw new HandoffError('unavailable');
  }
  const state = newRelayState();
  const url = relayUrl(webUrl, { ...ceremony, state });
  // Listen before the browser opens: the answer can come back quickly. The wait ends on the caller's
  // cancel, or here when the browser cannot be opened.
  const listening = new AbortController();
  const signal = limits.signal ? AbortSignal.any([limits.signal, listening.signal]) : listening.signal;
  const result = waitForRelayResult(platform, { state, deadline: limits.deadline, signal });
  result.catch(() => undefined);
  if (!(await platform.openInBrowser(url))) {
    listening.abort();
    throw new HandoffError('browser');
  }
  limits.onOpened?.(url);
  const { response } = await result;
  return ceremony.mode === 'register'
    ? decodeRelayResponse('register', response)
    : decodeRelayResponse('authenticate', response);
}
