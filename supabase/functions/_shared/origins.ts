import { getEnv, requireEnv } from './env.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Origins a checkout may send the buyer back to: the API's own origin (the embedded stack serves the web
 * app), SITE_URL, CHECKOUT_ALLOWED_ORIGINS (comma-separated) and loopback web servers. Anything else
 * would let a caller turn our checkout into a redirect to a site of their choosing.
 */
export function allowedOrigins(): Set<string> {
  const listed = [
    requireEnv('SUPABASE_URL'),
    getEnv('SITE_URL'),
    ...(getEnv('CHECKOUT_ALLOWED_ORIGINS') ?? '').split(','),
  ];
  const origins = new Set<string>();
  for (const value of listed) {
    const origin = toOrigin(value?.trim());
    if (origin) {
      origins.add(origin);
    }
  }
  return origins;
}

function toOrigin(value: string | undefined): string | null {
  if (!value) {
    return null;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The request's Origin when allowed, else the site's own origin (SITE_URL, or the API's). */
export function redirectOrigin(req: Request): string {
  const origin = toOrigin(req.headers.get('origin') ?? undefined);
  if (origin && (allowedOrigins().has(origin) || LOOPBACK.has(new URL(origin).hostname))) {
    return origin;
  }
  return toOrigin(getEnv('SITE_URL')) ?? new URL(requireEnv('SUPABASE_URL')).origin;
}
