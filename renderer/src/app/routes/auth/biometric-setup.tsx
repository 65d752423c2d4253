import { SandboxWarning } from '../../../features/auth/components/sandbox-warning.tsx';
import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { BiometricSetupPanel } from '../../../features/biometric/components/biometric-setup-page.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ProtectedRoute } from '../../../lib/auth/protected-route.tsx';

/** /auth/biometric-setup (docs/product.md §2): requires login, otherwise goes to /auth. */
export function Component() {
  useDocumentTitle('Biometric Setup');
  return (
    <ProtectedRoute>
      <AuthShell title="Set Up Biometric Authentication" description="Add your device as a second factor.">
        <div className="space-y-4">
          <SandboxWarning />
          <BiometricSetupPanel />
        </div>
      </AuthShell>
    </ProtectedRoute>
  );
}
