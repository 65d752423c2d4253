import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { useCallback, useEffect, useRef, useState } from 'react';

import { platform } from '../../../lib/platform/index.ts';
import { runHandoff } from '../lib/desktop-handoff.ts';

export interface HandoffWaiting {
  /** The relay URL the browser was given (to open it again). */
  url: string;
  /** When the challenge expires (ms since the epoch). */
  deadline: number;
}

/**
 * The desktop's biometric hand-off as component state: while the browser has the ceremony, `waiting` says
 * so; `cancel` ends the wait (also on unmount), and a new attempt replaces the old one.
 */
export function useHandoff() {
  const [waiting, setWaiting] = useState<HandoffWaiting | null>(null);
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  const attempt = useCallback(
    async <T>(deadline: number, run: (limits: Parameters<typeof runHandoff>[2]) => Promise<T>) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      try {
        return await run({
          deadline,
          signal: controller.signal,
          onOpened: (url) => setWaiting({ url, deadline }),
        });
      } finally {
        if (current.current === controller) {
          current.current = null;
          setWaiting(null);
        }
      }
    },
    [],
  );

  const register = useCallback(
    (options: PublicKeyCredentialCreationOptionsJSON, deadline: number): Promise<RegistrationResponseJSON> =>
      attempt(deadline, (limits) => runHandoff(platform, { mode: 'register', options }, limits)),
    [attempt],
  );
  const authenticate = useCallback(
    (options: PublicKeyCredentialRequestOptionsJSON, deadline: number): Promise<AuthenticationResponseJSON> =>
      attempt(deadline, (limits) => runHandoff(platform, { mode: 'authenticate', options }, limits)),
    [attempt],
  );
  const cancel = useCallback(() => current.current?.abort(), []);
  const reopen = useCallback(() => {
    if (waiting) {
      void platform.openInBrowser(waiting.url);
    }
  }, [waiting]);
  return { waiting, register, authenticate, cancel, reopen };
}
