import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { supabase } from '../../../lib/supabase.ts';

type Verdict = { token: string; needsSecondStep: boolean };

/**
 * The aal2 guard (issue 8): with a verified factor, a password-only session (aal1, next level aal2) may not
 * reach the pages below; it is sent to /auth/mfa for the second step first. Without a session it lets the
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
    void (async () => {
      // Decoded from the stored access token and the session's factors: no request, so it is cheap.
      const { data } = await (await supabase()).auth.mfa.getAuthenticatorAssuranceLevel();
      if (live) {
        setVerdict({ token, needsSecondStep: data?.currentLevel === 'aal1' && data.nextLevel === 'aal2' });
      }
    })();
    return () => {
      live = false;
    };
  }, [token]);

  if (loading || (token && verdict?.token !== token)) {
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
