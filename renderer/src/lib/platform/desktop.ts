// Desktop implementation over the preload bridge (window.vigil): the session lives in the main process's
// encrypted vault, the config comes from the main process, and e-mail links return as vigil:// deep links
// that the main process has already validated.
import type { DesktopBridge, Platform } from './types.ts';

type Message = Parameters<Parameters<DesktopBridge['onDeepLink']>[0]>[0];

/** The renderer path for a deep-link message, or null when it is not a plain in-app path. */
export function deepLinkPath(message: Message): string | null {
  // The main process sends only known routes; this guards the router against anything else reaching it.
  if (
    typeof message.route !== 'string' ||
    !/^\/[a-z0-9/-]*$/.test(message.route) ||
    message.route.includes('//')
  ) {
    return null;
  }
  const query = new URLSearchParams(
    Object.entries(message.params ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  ).toString();
  return query ? `${message.route}?${query}` : message.route;
}

/** The biometric hand-off's answer: handed to whoever waits for it, never navigated to. */
export const RELAY_RESULT_ROUTE = '/auth/webauthn';

/** The web origin from the main process's config (which checked it: https, or the stack on localhost). */
function webUrlOf(raw: unknown): string | null {
  const value = (raw as { webUrl?: unknown } | null)?.webUrl;
  return typeof value === 'string' ? value : null;
}

export function desktopPlatform(bridge: DesktopBridge): Platform {
  // Subscribe at once: a link that opened the app arrives right after the page loads, before React mounts.
  const pending: string[] = [];
  let navigator: ((path: string) => void) | null = null;
  const relayListeners = new Set<(params: Record<string, string>) => void>();
  bridge.onDeepLink((message) => {
    if (message.route === RELAY_RESULT_ROUTE) {
      // Not queued: an answer nobody waits for (the attempt was cancelled or the app restarted) is void.
      for (const listener of relayListeners) {
        listener({ ...message.params });
      }
      return;
    }
    const path = deepLinkPath(message);
    if (path === null) {
      return;
    }
    if (navigator) {
      navigator(path);
    } else if (pending.length < 5) {
      pending.push(path);
    }
  });
  return {
    kind: 'desktop',
    authRedirectBase: () => 'vigil://',
    openExternal: (url) => {
      // The main process refuses origins outside its allow list (it resolves false); nothing to do here then.
      bridge.openExternal(url).catch(() => undefined);
    },
    runtimeConfig: () => bridge.config(),
    authStorage: {
      getItem: (key) => bridge.vault.getItem(key),
      setItem: (key, value) => bridge.vault.setItem(key, value),
      removeItem: (key) => bridge.vault.removeItem(key),
    },
    onNavigate(navigate) {
      navigator = navigate;
      for (const path of pending.splice(0)) {
        navigate(path);
      }
      return () => {
        if (navigator === navigate) {
          navigator = null;
        }
      };
    },
    saveReport: (url, suggestedName) => bridge.saveReport(url, suggestedName),
    webUrl: async () => webUrlOf(await bridge.config().catch(() => null)),
    // The main process allows only the web origin's relay page here; a refusal or failure is false.
    openInBrowser: (url) => bridge.openExternal(url).catch(() => false),
    onRelayResult(listener) {
      relayListeners.add(listener);
      return () => void relayListeners.delete(listener);
    },
  };
}
