import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { needsSecondStep } from '../../../lib/auth/assurance.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

type Verdict = { token: string; needsSecondStep: boolean };

/**
 * The aal2 guard (docs/product.md §15): while the user has a verified factor, a password-only session (aal1, next level
 * aal2) may not reach the pages below; it is sent to /auth/mfa for the second step first. Without a session it lets the
 * inner ProtectedRoute send the visitor to /auth as usual.
 */
export function AssuranceGuard() {
  const { session, loading } = useAuth();
  const location = useLocation();
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const token = session?.access_token ?? '';

  useEffect(() => {
    if (!token) {
      return;
    }
    let live = true;
    void needsSecondStep(token).then(
      (needed) => live && setVerdict({ token, needsSecondStep: needed }),
      // The stored session could not be read either: let the inner route decide (it signs out a broken one).
      () => live && setVerdict({ token, needsSecondStep: false }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  // A new token for a session already let through (a refresh, or the aal2 upgrade right after enrolling)
  // keeps the page mounted while it is checked again: unmounting would lose what the page shows.
  const recheckingAllowed = verdict !== null && !verdict.needsSecondStep;
  if (loading || (token && verdict?.token !== token && !recheckingAllowed)) {
    return <FullPageSpinner />;
  }
  if (token && verdict?.needsSecondStep) {
    return (
      <Navigate
        to="/auth/mfa"
        replace
        state={{ from: { pathname: location.pathname, search: location.search, hash: location.hash } }}
      />
    );
  }
  return <Outlet />;
}
