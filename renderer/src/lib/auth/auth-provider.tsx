// Holds the supabase-js session for the app: follows every auth event, refreshes when the tab becomes
// visible again, and wraps the auth calls of docs/product.md §7 (errors are rethrown to the caller).
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { type ReactNode, useEffect, useMemo, useState } from 'react';

import { authRedirectUrl } from '../platform/index.ts';
import { rateLimiter } from '../rate-limiter.ts';
import { onSupabaseCreated, supabase } from '../supabase.ts';
import { ConfigProblem } from '../../components/errors/config-problem.tsx';
import { AuthContext, type AuthContextValue } from './auth-context.ts';
import { refreshOrSignOut } from './refresh-session.ts';
import { isSessionKey, mayHaveStoredSession } from './stored-session.ts';

/** Refresh on visibility only if the last refresh is older than this, so tab flicking does not hammer the API. */
const VISIBILITY_REFRESH_MIN_MS = 60_000;

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  // A visitor with no stored session is known to be signed out at once: no spinner, no supabase-js yet.
  const [loading, setLoading] = useState(mayHaveStoredSession);
  const [lastEvent, setLastEvent] = useState<AuthChangeEvent | null>(null);
  const [configError, setConfigError] = useState<unknown>(null);
  const [signedOutByUser, setSignedOutByUser] = useState(false);

  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    let lastRefresh = Date.now();
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || Date.now() - lastRefresh < VISIBILITY_REFRESH_MIN_MS) {
        return;
      }
      // Nothing to refresh for a visitor who never signed in (and no reason to load supabase-js for it).
      if (!mayHaveStoredSession()) {
        return;
      }
      lastRefresh = Date.now();
      // A refused refresh token signs this device out; the listener below sees SIGNED_OUT.
      void supabase()
        .then((client) => refreshOrSignOut(client.auth))
        .catch(() => undefined);
    };
    const follow = (pending: ReturnType<typeof supabase>) =>
      pending.then(
        (client) => {
          if (!active) {
            return;
          }
          const { data } = client.auth.onAuthStateChange((event, next) => {
            setLastEvent(event);
            setSession(next);
            if (event === 'SIGNED_IN') {
              setSignedOutByUser(false);
            }
            setLoading(false);
          });
          unsubscribe = () => data.subscription.unsubscribe();
          // INITIAL_SESSION normally arrives through the listener; this covers a storage read that fails.
          client.auth.getSession().then(
            ({ data: current }) => {
              setSession(current.session);
              setLoading(false);
            },
            () => setLoading(false),
          );
        },
        (error: unknown) => {
          // Without a valid config nothing can reach the backend: show what is wrong instead of a spinner.
          if (active) {
            setConfigError(error);
            setLoading(false);
          }
        },
      );
    // Whoever creates the client (this provider, a sign-in, a page's query), the session follows it.
    if (mayHaveStoredSession()) {
      void supabase();
    }
    const stopFollowing = onSupabaseCreated((pending) => void follow(pending));
    // A sign-in in another tab stores a session: load the client so this tab follows it too.
    const onStorage = (event: StorageEvent) => {
      if (isSessionKey(event.key) && event.newValue) {
        void supabase().catch(() => undefined);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('storage', onStorage);
    return () => {
      active = false;
      stopFollowing();
      unsubscribe();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const value = useMemo<AuthContextValue>(() => {
    const auth = async () => (await supabase()).auth;
    const fail = (error: Error): never => {
      // The limiter counts client calls; an auth error resets it so the next attempt is not refused.
      rateLimiter.clear();
      throw error;
    };
    return {
      session,
      user: session?.user ?? null,
      loading,
      lastEvent,
      signedOutByUser,
      async signIn({ email, password }) {
        const { error } = await (await auth()).signInWithPassword({ email, password });
        if (error) {
          fail(error);
        }
      },
      async signUp({ email, password, fullName, companyName, industryType }) {
        const { data, error } = await (
          await auth()
        ).signUp({
          email,
          password,
          options: {
            data: { full_name: fullName, company_name: companyName, industry_type: industryType },
            emailRedirectTo: authRedirectUrl('/auth/callback'),
          },
        });
        if (error) {
          fail(error);
        }
        return { signedIn: data.session !== null };
      },
      async signOut() {
        setSignedOutByUser(true);
        const { error } = await (await auth()).signOut();
        if (error) {
          setSignedOutByUser(false);
          fail(error);
        }
      },
      async requestPasswordReset(email) {
        const { error } = await (
          await auth()
        ).resetPasswordForEmail(email, {
          redirectTo: authRedirectUrl('/auth/reset-password'),
        });
        if (error) {
          fail(error);
        }
      },
      async updatePassword(password) {
        const { error } = await (await auth()).updateUser({ password });
        if (error) {
          fail(error);
        }
      },
    };
  }, [session, loading, lastEvent, signedOutByUser]);

  if (configError) {
    return <ConfigProblem error={configError} />;
  }
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
