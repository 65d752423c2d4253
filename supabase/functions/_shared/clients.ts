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
  // GoTrue's reading of the header: one space, no whitespace in or around the token.
  const token = req.headers.get('Authorization')?.match(/^[Bb]earer (\S+)$/)?.[1] ?? null;
  // The anon key sent as a bearer means "no session"; sb_ keys are never user tokens.
  if (!token || token === getApiKey(req) || token.startsWith('sb_')) {
    return null;
  }
  return token;
}

const getApiKey = (req: Request) => req.headers.get('apikey');

/** GoTrue's words when an aal1 session of a user with a verified factor asks for what needs aal2. */
export const INSUFFICIENT_AAL =
  'AAL2 session is required: verify your second factor (authenticator app or biometrics) first.';

/**
 * A password-only (aal1) token of a user with a verified second factor: refused with GoTrue's
 * `insufficient_aal` error (401), in both its field sets, plus `error` as every Vigil function answers.
 */
export class InsufficientAalError extends HttpError {
  constructor() {
    super(401, INSUFFICIENT_AAL, undefined, {
      code: 'insufficient_aal',
      error_code: 'insufficient_aal',
      msg: INSUFFICIENT_AAL,
      message: INSUFFICIENT_AAL,
    });
    this.name = 'InsufficientAalError';
  }
}

/** A refusal for want of a session (no token, an expired one), as opposed to want of the second factor. */
export const needsSignIn = (e: unknown): boolean =>
  e instanceof HttpError && e.status === 401 && !(e instanceof InsufficientAalError);

/** The claims of a token the auth server has just accepted (its signature and session are checked there). */
function verifiedClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  try {
    const claims: unknown = JSON.parse(atob(base64));
    return claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Whether a token may act for its user: it is aal2, or the user has no verified factor (GoTrue's rule). */
export function meetsAssurance(user: User, token: string): boolean {
  const verifiedFactor = (user.factors ?? []).some((f) => f.status === 'verified');
  return !verifiedFactor || verifiedClaims(token).aal === 'aal2';
}

export interface RequireUserOptions {
  /**
   * 'aal2-if-enrolled' (the default): a user with a verified factor must have completed it in this session.
   * 'any': also a password-only session, for what the second step itself needs (error logs, say).
   */
  assurance?: 'aal2-if-enrolled' | 'any';
}

/**
 * The signed-in user making the request. Guards every function that acts for a user: the token is
 * checked by the auth server (signature, expiry, user still exists), never merely decoded, and a user with
 * a verified second factor must have passed it (aal2), as row-level security requires too.
 */
export async function requireUser(
  req: Request,
  { assurance = 'aal2-if-enrolled' }: RequireUserOptions = {},
): Promise<{ user: User; clients: Clients }> {
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
  if (assurance === 'aal2-if-enrolled' && !meetsAssurance(data.user, token)) {
    throw new InsufficientAalError();
  }
  return { user: data.user, clients };
}
