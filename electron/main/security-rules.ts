import { APP_ORIGIN } from './app-scheme.ts';

/** Where links from the app may open in the user's browser: https origins we trust, plus the backend. */
export const DEFAULT_EXTERNAL_ORIGINS = [
  'https://checkout.stripe.com',
  'https://billing.stripe.com',
  'https://calendly.com',
  'https://github.com',
] as const;

export function isAllowedExternal(raw: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) {
    return false;
  }
  return allowed.includes(url.origin) && (url.protocol === 'https:' || isLoopback(url));
}

const isLoopback = (url: URL) =>
  url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export const isAppUrl = (raw: string) => {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
};

/** The Electron surface the rules attach to, narrowed so they can be tested without Electron. */
export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): void;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface SecurityDeps {
  onWebContentsCreated(listener: (contents: WebContentsLike) => void): void;
  setPermissionRequestHandler(
    handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  openExternal(url: string): Promise<void>;
  externalOrigins: readonly string[];
  log(message: string): void;
}

/**
 * Electron's security checklist, applied to every web contents: navigation stays in the app, new windows
 * never open in Electron (allowed https links go to the user's browser), no <webview>, and every permission
 * request (camera, geolocation, …) is denied. Nothing in the app needs one.
 */
export function applySecurityRules(deps: SecurityDeps): void {
  deps.setPermissionRequestHandler((_wc, permission, callback) => {
    deps.log(`denied permission request: ${permission}`);
    callback(false);
  });
  deps.setPermissionCheckHandler(() => false);
  deps.onWebContentsCreated((contents) => {
    const keepInApp = (event: { preventDefault(): void }, url: string) => {
      if (!isAppUrl(url)) {
        event.preventDefault();
        deps.log(`blocked navigation to ${safeForLog(url)}`);
      }
    };
    contents.on('will-navigate', keepInApp);
    contents.on('will-redirect', keepInApp);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url, deps.externalOrigins)) {
        void deps.openExternal(url);
      } else {
        deps.log(`blocked window.open to ${safeForLog(url)}`);
      }
      return { action: 'deny' };
    });
  });
}

// Links can carry auth codes in their query: log only the origin and path.
function safeForLog(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
