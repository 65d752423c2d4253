/**
 * Headers for the web app's pages and files: a CSP that lets the React SPA load only its own scripts
 * and talk only to this origin (HTTP and the realtime WebSocket), never be framed, never sniff types.
 */
export function webSecurityHeaders(publicUrl: string): Record<string, string> {
  const api = new URL(publicUrl);
  const ws = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // React and Radix set inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${api.origin} ${ws}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
}
