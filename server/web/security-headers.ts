import { contentSecurityPolicy } from '../../shared/csp.ts';

/** Headers for the web app's pages and files: the shared CSP, no framing, no type sniffing. */
export function webSecurityHeaders(publicUrl: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(publicUrl),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
}
