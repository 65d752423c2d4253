// Route guards (docs/product.md §2): protected pages send visitors to /auth remembering where they came from;
// /auth sends signed-in visitors to /dashboard; both show a spinner while the session loads.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';

import { FullPageSpinner } from '../../components/ui/spinner.tsx';
import { STORAGE_KEYS } from '../../../../shared/constants.ts';
import { useAuth } from './auth-context.ts';
import { postAuthDestination } from './post-auth-destination.ts';

export interface FromState {
  from?: { pathname: string; search?: string; hash?: string };
}

export function ProtectedRoute({ children, requiredRole }: { children: ReactNode; requiredRole?: string }) {
  const { session, user, loading, signedOutByUser } = useAuth();
  const location = useLocation();
  if (loading) {
    return <FullPageSpinner />;
  }
  // Choosing Sign Out leads home (docs/product.md §2); only a lost session asks to sign in again.
  if (!session && signedOutByUser) {
    return <Navigate to="/" replace />;
  }
  if (!session) {
    const state: FromState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/auth" replace state={state} />;
  }
  // No roles are defined yet; the option exists so a role can gate a page without a new guard.
  if (requiredRole !== undefined && user?.app_metadata.role !== requiredRole) {
    return <Navigate to="/dashboard" replace />;
  }
  return children;
}

function storedRoles(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEYS.selectedAgentRoles);
  } catch {
    return null;
  }
}

export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const { session, loading } = useAuth();
  const location = useLocation();
  if (loading) {
    return <FullPageSpinner />;
  }
  if (session) {
    const { state, ...to } = postAuthDestination(location.state, storedRoles());
    return <Navigate to={to} replace state={state} />;
  }
  return children;
}
