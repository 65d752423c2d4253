// The biometric texts of docs/product.md §5 and §8, and how a failed ceremony maps onto them.

export const BIOMETRIC_MESSAGES = {
  unsupported: 'WebAuthn is not supported in this browser',
  noChallenge: 'Failed to receive authentication challenge',
  timedOut:
    'The biometric operation timed out or was canceled. Please try again and follow your device prompts.',
  sandbox:
    'Biometric authentication is blocked in this sandboxed or embedded page. Open Vigil in its own browser tab and try again.',
  // Chromium lets only https:// and http://localhost pages use WebAuthn; the desktop app's pages are app://,
  // so the desktop hands the ceremony to the system browser (the relay page) and waits for its answer.
  handOffTitle: 'Continue in your browser',
  handOffWaiting:
    'Vigil opened a tab in your browser. Confirm with Touch ID / Windows Hello there; Vigil continues here as soon as you are done.',
  handOffFailed:
    'Vigil could not open your browser for the biometric confirmation. Check that a default browser is set and try again, or use an authenticator app code.',
  handOffUnavailable:
    'This desktop app does not know the Vigil web address its browser confirmation needs (VIGIL_WEB_URL). Use an authenticator app code, or ask your administrator.',
  handOffExpired: 'The biometric confirmation expired before your browser answered. Please try again.',
  handOffCancelled: 'The biometric confirmation was cancelled. Please try again when you are ready.',
  handOffBrowserUnsupported:
    'Your default browser does not support biometric confirmation (WebAuthn). Set a current browser as the default, or use an authenticator app code.',
  relayTitle: 'Confirm it is you',
  relayPrompt: 'Confirm with Touch ID / Windows Hello to continue in the Vigil app.',
  relayInvalid:
    'This confirmation link is incomplete or not meant for this site. Start again from the Vigil app.',
  relayDone: 'Confirmed. You can close this tab.',
  success: 'Biometric Setup Complete',
} as const;

/**
 * The catalogue's message for an error from navigator.credentials (directly or via @simplewebauthn/browser
 * or auth-js): cancel / timeout (NotAllowedError, AbortError) and origin / RP problems (SecurityError) have
 * their own texts; anything else keeps its own message.
 */
export function biometricErrorMessage(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // The desktop hand-off's own failures already carry the catalogue's text.
  if (name === 'HandoffError') {
    return message;
  }
  if (
    name === 'NotAllowedError' ||
    name === 'AbortError' ||
    code === 'ERROR_CEREMONY_ABORTED' ||
    /timed out|cancel/i.test(message)
  ) {
    return BIOMETRIC_MESSAGES.timedOut;
  }
  if (
    name === 'SecurityError' ||
    code === 'ERROR_INVALID_DOMAIN' ||
    code === 'ERROR_INVALID_RP_ID' ||
    /origin|relying party|rp ?id/i.test(message)
  ) {
    return BIOMETRIC_MESSAGES.sandbox;
  }
  return message || 'Biometric setup failed. Please try again.';
}
