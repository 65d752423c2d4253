// Exchanges a PKCE auth code once per page load. React's StrictMode runs effects twice and a code (and
// its verifier) can be used only once, so concurrent callers share the first attempt's result.
import { supabase } from '../supabase.ts';

const attempts = new Map<string, Promise<{ ok: boolean }>>();

export function exchangeCodeOnce(code: string): Promise<{ ok: boolean }> {
  let attempt = attempts.get(code);
  if (!attempt) {
    attempt = supabase()
      .then((client) => client.auth.exchangeCodeForSession(code))
      .then(({ error }) => ({ ok: !error }));
    attempts.set(code, attempt);
  }
  return attempt;
}

/** The auth error a redirect carries in its query or fragment (GoTrue puts it in either). */
export function urlAuthError(search: string, hash: string): string | null {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const description = query.get('error_description') ?? fragment.get('error_description');
  const code = query.get('error') ?? fragment.get('error');
  if (description !== null) {
    return description;
  }
  return code;
}
