import { WEBAUTHN_RELAY_PATH } from '../../shared/deep-links.ts';

/**
 * Whether the renderer may open `raw` in the system browser as a biometric hand-off: exactly the relay page
 * on the configured web origin, its request in the fragment only. Guards against the hand-off becoming a way
 * to open arbitrary pages on the web origin, or to put the request in a query that server logs would keep.
 */
export function isWebauthnRelayUrl(raw: string, webUrl: string | null): boolean {
  if (!webUrl) {
    return false;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && url.hostname === 'localhost');
  return (
    secure &&
    url.origin === new URL(webUrl).origin &&
    url.pathname === WEBAUTHN_RELAY_PATH &&
    !url.username &&
    !url.password &&
    url.search === '' &&
    url.hash.length > 1
  );
}
