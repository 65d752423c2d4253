// The only place that decides whether the renderer runs on the web or in the desktop app.
import { desktopPlatform } from './desktop.ts';
import type { DesktopBridge, Platform } from './types.ts';
import { webPlatform } from './web.ts';

function detect(): Platform {
  // Prerendering at build time (no window): the page is rendered as the web app.
  if (typeof window === 'undefined') {
    return webPlatform;
  }
  const bridge = (window as unknown as { vigil?: DesktopBridge }).vigil;
  // A page without the preload (any browser) is the web app; only the preload defines window.vigil.
  return bridge && typeof bridge.onDeepLink === 'function' ? desktopPlatform(bridge) : webPlatform;
}

export const platform: Platform = detect();

/** `${base}/path` for e-mail redirects; the desktop base is a scheme, so no double slash. */
export function authRedirectUrl(path: string): string {
  const base = platform.authRedirectBase();
  return base.endsWith('//') ? `${base}${path.replace(/^\//, '')}` : `${base}${path}`;
}
