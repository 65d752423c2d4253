import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { WebauthnRelayPanel } from '../../../features/biometric/components/webauthn-relay-panel.tsx';
import { BIOMETRIC_MESSAGES } from '../../../features/biometric/lib/biometric-messages.ts';

/**
 * /auth/webauthn-relay: public, no session. The desktop app opens it in the system browser to run a WebAuthn
 * ceremony on the web origin (its own app:// pages cannot); the request is in the URL fragment.
 */
export function Component() {
  return (
    <AuthShell title={BIOMETRIC_MESSAGES.relayTitle} description={BIOMETRIC_MESSAGES.relayPrompt}>
      <WebauthnRelayPanel />
    </AuthShell>
  );
}
