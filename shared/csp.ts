/**
 * The renderer's content security policy, for the web build (served by the stack) and the desktop app
 * (served from app://vigil): code only from the app itself, data only from the backend (HTTP and the realtime
 * WebSocket), no plugins, never framed; the one embedded frame is the demo page's scheduler.
 */
export const SCHEDULER_ORIGIN = 'https://calendly.com';

export function contentSecurityPolicy(apiUrl: string): string {
  const api = new URL(apiUrl);
  const ws = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    // React and Radix set inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${api.origin}`,
    "font-src 'self' data:",
    `connect-src 'self' ${api.origin} ${ws}`,
    `frame-src ${SCHEDULER_ORIGIN}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
