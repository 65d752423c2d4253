// The biometric texts of SPEC points 5 and 8, and how a failed ceremony maps onto them.

export const BIOMETRIC_MESSAGES = {
  unsupported: 'WebAuthn is not supported in this browser',
  noChallenge: 'Failed to receive authentication challenge',
  timedOut:
    'The biometric operation timed out or was canceled. Please try again and follow your device prompts.',
  sandbox:
    'Biometric authentication is blocked in this sandboxed or embedded page. Open Vigil in its own browser tab and try again.',
  // Chromium lets only https:// and http://localhost pages use WebAuthn; the desktop app's pages are app://.
  desktopTitle: 'Not available in the desktop app',
  desktop:
    'The desktop app cannot use your device’s biometric authenticator. Register it in Vigil in your browser, and add an authenticator app in Security Settings to sign in here with a code.',
  desktopOnlyBiometric:
    'Your second factor is a biometric registered in the browser, which the desktop app cannot use. Complete this step in the browser, or add an authenticator app there to sign in here with a code.',
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
