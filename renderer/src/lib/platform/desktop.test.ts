import { describe, expect, it, vi } from 'vitest';

import { deepLinkPath, desktopPlatform } from './desktop.ts';
import type { DesktopBridge } from './types.ts';

function fakeBridge() {
  let listener: ((m: { route: string; params: Record<string, string> }) => void) | undefined;
  const bridge: DesktopBridge = {
    config: vi.fn(() => Promise.resolve({ webUrl: 'http://localhost:54321' })),
    vault: {
      getItem: vi.fn(() => Promise.resolve(null)),
      setItem: vi.fn(() => Promise.resolve()),
      removeItem: vi.fn(() => Promise.resolve()),
    },
    openExternal: vi.fn(() => Promise.resolve(false)),
    saveReport: vi.fn(() => Promise.resolve({ saved: false })),
    onDeepLink: (l) => {
      listener = l;
      return () => undefined;
    },
  };
  return {
    bridge,
    emit: (route: string, params: Record<string, string> = {}) => listener?.({ route, params }),
  };
}

describe('deepLinkPath', () => {
  it('builds the in-app path with its query', () => {
    expect(deepLinkPath({ route: '/auth/callback', params: { code: 'abc-123' } })).toBe(
      '/auth/callback?code=abc-123',
    );
    expect(deepLinkPath({ route: '/dashboard', params: {} })).toBe('/dashboard');
  });

  it('refuses anything that is not a plain in-app path', () => {
    for (const route of [
      'https://evil.example/',
      '//evil.example/x',
      'javascript:alert(1)',
      '/auth/../x?',
      '/Dashboard',
      '',
    ]) {
      expect(deepLinkPath({ route, params: {} }), route).toBeNull();
    }
  });
});

describe('desktopPlatform', () => {
  it('queues links that arrive before the router listens, then navigates', () => {
    const { bridge, emit } = fakeBridge();
    const platform = desktopPlatform(bridge);
    emit('/auth/callback', { code: 'abcdefgh' });
    emit('https://evil.example/');
    const navigate = vi.fn();
    const stop = platform.onNavigate(navigate);
    expect(navigate).toHaveBeenCalledWith('/auth/callback?code=abcdefgh');
    emit('/dashboard/settings');
    expect(navigate).toHaveBeenLastCalledWith('/dashboard/settings');
    stop();
    emit('/dashboard');
    expect(navigate).toHaveBeenCalledTimes(2);
  });

  it('keeps the session in the vault and swallows refused external links', async () => {
    const { bridge } = fakeBridge();
    const platform = desktopPlatform(bridge);
    await platform.authStorage?.setItem('sb-x-auth-token', '{}');
    expect(bridge.vault.setItem).toHaveBeenCalledWith('sb-x-auth-token', '{}');
    platform.openExternal('https://evil.example');
    expect(bridge.openExternal).toHaveBeenCalledWith('https://evil.example');
    expect(platform.authRedirectBase()).toBe('vigil://');
  });
});

describe('desktopPlatform: the biometric hand-off', () => {
  it('hands vigil://auth/webauthn answers to their listeners, never to the router, and drops them unheard', () => {
    const { bridge, emit } = fakeBridge();
    const platform = desktopPlatform(bridge);
    emit('/auth/webauthn', { state: 's'.repeat(43), error: 'cancelled' });
    const navigate = vi.fn();
    platform.onNavigate(navigate);
    const listener = vi.fn();
    const stop = platform.onRelayResult(listener);
    emit('/auth/webauthn', { state: 's'.repeat(43), response: 'abc' });
    stop();
    emit('/auth/webauthn', { state: 's'.repeat(43), response: 'def' });
    expect(listener.mock.calls).toEqual([[{ state: 's'.repeat(43), response: 'abc' }]]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('takes the web origin from the main process config', async () => {
    const { bridge } = fakeBridge();
    await expect(desktopPlatform(bridge).webUrl()).resolves.toBe('http://localhost:54321');
    for (const webUrl of [null, 42, undefined]) {
      bridge.config = vi.fn(() => Promise.resolve({ webUrl }));
      await expect(desktopPlatform(bridge).webUrl(), String(webUrl)).resolves.toBeNull();
    }
    bridge.config = vi.fn(() => Promise.reject(new Error('backend down')));
    await expect(desktopPlatform(bridge).webUrl()).resolves.toBeNull();
  });
});
