import { redirectBase } from '../redirect-base.ts';
import type { Platform } from './types.ts';

export const webPlatform: Platform = {
  kind: 'web',
  authRedirectBase: () => redirectBase(window.location.origin),
  openExternal: (url) => {
    window.open(url, '_blank', 'noopener,noreferrer');
  },
  runtimeConfig: null,
  authStorage: null,
  onNavigate: () => () => undefined,
  webUrl: () => Promise.resolve(window.location.origin),
  openInBrowser: (url) => Promise.resolve(window.open(url, '_blank', 'noopener,noreferrer') !== null),
  // Web pages run WebAuthn themselves: no hand-off answers arrive here.
  onRelayResult: () => () => undefined,
  saveReport: (url, suggestedName) => {
    // The browser asks where to save (or uses its downloads folder); the page cannot learn the path.
    const link = document.createElement('a');
    link.href = url;
    link.download = suggestedName;
    link.rel = 'noopener';
    link.click();
    return Promise.resolve({ saved: true });
  },
};
