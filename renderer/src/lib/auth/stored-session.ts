// Whether supabase-js may hold a session for this visitor, answered without loading supabase-js: a signed-out
// visitor on the web has no session entry in local storage, so the session is known to be empty at once.
import { platform } from '../platform/index.ts';

/** supabase-js's default session key, sb-<project ref>-auth-token (the PKCE verifier key is not a session). */
const SESSION_KEY = /^sb-.+-auth-token$/;

export function isSessionKey(key: string | null): boolean {
  return key !== null && SESSION_KEY.test(key);
}

export function mayHaveStoredSession(): boolean {
  // Prerendering at build time: the page is rendered as a signed-out visitor sees it.
  if (typeof localStorage === 'undefined') {
    return false;
  }
  // The desktop keeps the session in the main process's vault: only an asynchronous read can tell.
  if (platform.authStorage) {
    return true;
  }
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      if (isSessionKey(localStorage.key(i))) {
        return true;
      }
    }
    return false;
  } catch {
    // Storage that cannot be read: let supabase-js decide.
    return true;
  }
}
