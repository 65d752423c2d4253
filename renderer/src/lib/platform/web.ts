import { redirectBase } from '../redirect-base.ts';
import type { Platform } from './types.ts';

export const webPlatform: Platform = {
  kind: 'web',
  authRedirectBase: () => redirectBase(window.location.origin),
  openExternal: (url) => {
    window.open(url, '_blank', 'noopener,noreferrer');
  },
};
