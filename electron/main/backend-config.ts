import { z } from 'zod';

const PublicConfig = z.object({ supabaseUrl: z.string().url(), supabaseAnonKey: z.string().min(20) });
export type PublicConfig = z.infer<typeof PublicConfig>;

/**
 * The backend the desktop app talks to: VIGIL_API_URL (default: the embedded stack on this machine). Its
 * public anon key comes from the backend's /config.json, so one build serves any backend.
 */
export function apiUrlFromEnv(env: Record<string, string | undefined>): string {
  const raw = env.VIGIL_API_URL ?? 'http://127.0.0.1:54321';
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`VIGIL_API_URL must be https (or a loopback http URL), got ${url.origin}`);
  }
  return url.origin;
}

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export async function fetchPublicConfig(apiUrl: string, fetchFn: FetchLike): Promise<PublicConfig> {
  const res = await fetchFn(`${apiUrl}/config.json`, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) {
    throw new Error(`${apiUrl}/config.json answered ${res.status}`);
  }
  return PublicConfig.parse(await res.json());
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The web app's origin, where the biometric hand-off's relay page runs in the user's browser (WebAuthn needs
 * an https or localhost origin; app://vigil is neither): VIGIL_WEB_URL (the backend's SITE_URL), else for a
 * loopback backend the embedded stack itself on host `localhost` (its RP id; 127.0.0.1 cannot be one), else
 * null: then the desktop says the biometric confirmation is not configured.
 */
export function webUrlFromEnv(env: Record<string, string | undefined>, apiUrl: string): string | null {
  if (env.VIGIL_WEB_URL) {
    const url = new URL(env.VIGIL_WEB_URL);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && url.hostname === 'localhost')) {
      throw new Error(`VIGIL_WEB_URL must be https (or http://localhost), got ${url.origin}`);
    }
    return url.origin;
  }
  const api = new URL(apiUrl);
  if (api.protocol === 'http:' && LOOPBACK_HOSTS.includes(api.hostname)) {
    api.hostname = 'localhost';
    return api.origin;
  }
  return null;
}
