import { describe, expect, it, vi } from 'vitest';
import type { WatcherBackend } from './background-watcher.ts';
import { startTrayApp, trayImagePath } from './tray-app.ts';
import type { NotificationCtor } from './notifications.ts';

const USER = '11111111-1111-4111-8111-111111111111';

function setup(user: string | null = USER) {
  let current = user;
  const backend: WatcherBackend = {
    currentSession: () =>
      Promise.resolve(current ? { userId: current, accessToken: `token-${current}` } : null),
    renewToken: () => Promise.resolve(),
    onAuthChange: () => () => {},
    subscribe: () => Promise.resolve(() => Promise.resolve()),
    counts: () => Promise.resolve({ runningScans: 1, openCriticalAlerts: 0 }),
    settings: () => Promise.resolve(null),
    signOut: () => Promise.resolve(void (current = null)),
  };
  const tray = {
    setImage: vi.fn(),
    setToolTip: vi.fn(),
    setContextMenu: vi.fn(),
    on: vi.fn(),
    destroy: vi.fn(),
  };
  let loginEnabled = false;
  const deps = {
    backend: () => Promise.resolve(backend),
    Notification: class {} as unknown as NotificationCtor,
    createTray: vi.fn(() => tray),
    buildMenu: vi.fn(),
    trayDir: '/res/tray',
    platform: 'linux' as const,
    launchAtLogin: {
      isEnabled: () => loginEnabled,
      setEnabled: vi.fn((v: boolean) => void (loginEnabled = v)),
      startedAtLogin: () => false,
    },
    openLink: vi.fn(() => true),
    showWindow: vi.fn(),
    reloadWindow: vi.fn(),
    quit: vi.fn(),
    log: vi.fn(),
  };
  return { app: startTrayApp(deps), deps, tray };
}

describe('tray app', () => {
  it('starts signed out in the tray, then shows the watcher state', async () => {
    const { app, deps, tray } = setup();
    expect(deps.createTray).toHaveBeenCalledWith('/res/tray/signed-out.png');
    await app.ready;
    expect(app.state()).toMatchObject({ signedIn: true, runningScans: 1 });
    expect(tray.setImage).toHaveBeenLastCalledWith('/res/tray/scanning.png');
    await app.stop();
  });

  it('menu actions open pages through vigil:// links, pause, toggle login, sign out and quit', async () => {
    const { app, deps } = setup();
    await app.ready;
    app.act('run-scan');
    app.act('open-alerts');
    expect(deps.openLink.mock.calls).toEqual([
      ['vigil://dashboard/security-automation'],
      ['vigil://dashboard/alerts'],
    ]);
    app.act('pause');
    expect(app.state().pausedUntil).not.toBeNull();
    app.act('resume');
    expect(app.state().pausedUntil).toBeNull();
    app.act('toggle-launch-at-login');
    expect(deps.launchAtLogin.setEnabled).toHaveBeenCalledWith(true);
    app.act('sign-out');
    await vi.waitFor(() => expect(deps.reloadWindow).toHaveBeenCalled());
    expect(app.state().signedIn).toBe(false);
    app.act('open');
    app.act('quit');
    expect(deps.showWindow).toHaveBeenCalled();
    expect(deps.quit).toHaveBeenCalled();
    await app.stop();
  });

  it('macOS uses template images; other systems colour ones', () => {
    expect(trayImagePath('/t', 'critical', 'darwin')).toBe('/t/criticalTemplate.png');
    expect(trayImagePath('/t', 'critical', 'win32')).toBe('/t/critical.png');
  });
});
