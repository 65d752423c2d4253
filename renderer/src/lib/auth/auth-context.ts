import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import { createContext, useContext } from 'react';

import type { SignInValues, SignUpValues } from '../../../../shared/validation.ts';

export interface AuthContextValue {
  session: Session | null;
  user: User | null;
  loading: boolean;
  lastEvent: AuthChangeEvent | null;
  /** True after the person chose Sign Out (until the next sign-in): protected pages then go to /, not /auth. */
  signedOutByUser: boolean;
  signIn: (values: SignInValues) => Promise<void>;
  /**
   * Creates the account; `signedIn` when the backend confirmed it at once (no e-mail confirmation) and the
   * session is already set: the public-only routes then send the person on by themselves.
   */
  signUp: (values: SignUpValues) => Promise<{ signedIn: boolean }>;
  signOut: () => Promise<void>;
  requestPasswordReset: (email: string) => Promise<void>;
  updatePassword: (password: string) => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The signed-in state; throws outside AuthProvider so a mis-wired tree fails loudly, not as "signed out". */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) {
    throw new Error('useAuth must be used within an AuthProvider');
  }
  return value;
}
