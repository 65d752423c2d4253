import { Link, useLocation, useNavigate } from 'react-router-dom';

import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useSignOut } from '../../../features/dashboard/components/use-sign-out.ts';
import { MfaChallengePanel } from '../../../features/biometric/components/mfa-challenge-panel.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ProtectedRoute, type FromState } from '../../../lib/auth/protected-route.tsx';

/** A way out for someone without their second factor at hand: sign out, and support can help. */
function SignOutInstead() {
  const signOut = useSignOut();
  return (
    <p className="mt-6 text-center text-sm text-muted-foreground">
      No access to your second factor?{' '}
      <Button variant="link" className="h-auto p-0" onClick={() => void signOut()}>
        Sign out
      </Button>{' '}
      or{' '}
      <Link className="underline underline-offset-4" to="/support">
        contact support
      </Link>
      .
    </p>
  );
}

/** The pages that send a session here for its second step, and where it goes back to afterwards. */
const RETURNS = ['/dashboard', '/auth/biometric-setup', '/auth/reset-password'];
const isReturn = (pathname: string) => RETURNS.some((p) => pathname === p || pathname.startsWith(`${p}/`));

/** /auth/mfa: the second sign-in step; afterwards back to where the guard stopped the visitor. */
export function Component() {
  useDocumentTitle('Two-Factor Verification');
  const navigate = useNavigate();
  const from = (useLocation().state as FromState | null)?.from;
  // Only in-app paths: the state could have been set by any page.
  const target = from && isReturn(from.pathname) ? `${from.pathname}${from.search ?? ''}` : '/dashboard';
  return (
    <ProtectedRoute>
      <AuthShell title="Two-Factor Verification" description="Confirm it is you with your second factor.">
        <MfaChallengePanel onVerified={() => void navigate(target, { replace: true })} />
        <SignOutInstead />
      </AuthShell>
    </ProtectedRoute>
  );
}
