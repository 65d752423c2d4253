import { createClient, type SupabaseClient, type User } from '@supabase/supabase-js';
import { HttpError } from './http.ts';
import { requireEnv } from './env.ts';

const serverSide = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

export interface Clients {
  /** Acts as the caller: their Authorization is forwarded, so row-level security applies. */
  user: SupabaseClient;
  /** The service role: bypasses row-level security. Use only after checking who the caller is. */
  admin: SupabaseClient;
}

/** Builds the caller-scoped and the service-role clients from SUPABASE_URL and the project's keys. */
export function createClients(req: Request): Clients {
  const url = requireEnv('SUPABASE_URL');
  const authorization = req.headers.get('Authorization');
  const user = createClient(url, requireEnv('SUPABASE_ANON_KEY'), {
    ...serverSide,
    global: { headers: authorization ? { Authorization: authorization } : {} },
  });
  const admin = createClient(url, requireEnv('SUPABASE_SERVICE_ROLE_KEY'), serverSide);
  return { user, admin };
}

/** The caller's bearer token, or null when there is none (or it is only an API key). */
export function bearerToken(req: Request): string | null {
  const token = req.headers.get('Authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;
  // The anon key sent as a bearer means "no session"; sb_ keys are never user tokens.
  if (!token || token === getApiKey(req) || token.startsWith('sb_')) {
    return null;
  }
  return token;
}

const getApiKey = (req: Request) => req.headers.get('apikey');

/**
 * The signed-in user making the request. Guards every function that acts for a user: the token is
 * checked by the auth server (signature, expiry, user still exists), never merely decoded.
 */
export async function requireUser(req: Request): Promise<{ user: User; clients: Clients }> {
  const token = bearerToken(req);
  if (!token) {
    throw new HttpError(401, 'Sign in required: send the user access token as Authorization: Bearer <token>');
  }
  const clients = createClients(req);
  const { data, error } = await clients.user.auth.getUser(token);
  // An unreachable or failing auth server is our fault (500), not the caller's.
  if (error && !(error.status && error.status >= 400 && error.status < 500)) {
    throw error;
  }
  if (error || !data.user) {
    throw new HttpError(401, 'Invalid or expired access token');
  }
  return { user: data.user, clients };
}
