// Desktop implementation over the preload bridge. The bridge (window.vigil) is typed by electron/preload;
// until it exists only the parts below are assumed, and e-mail links return through the vigil:// scheme.
import type { Platform } from './types.ts';

interface VigilBridge {
  openExternal?: (url: string) => Promise<void> | void;
}

export function desktopPlatform(bridge: VigilBridge): Platform {
  return {
    kind: 'desktop',
    authRedirectBase: () => 'vigil://',
    openExternal: (url) => {
      void bridge.openExternal?.(url);
    },
  };
}
