import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import type { NotificationIntent } from './background-watcher-rules.ts';
import { createBackgroundWatcher, type WatcherBackend, type WatcherState } from './background-watcher.ts';
import type { createLaunchAtLogin } from './launch-at-login.ts';
import { createNotifier, type NotificationCtor } from './notifications.ts';
import { createTrayController, type TrayLike } from './tray.ts';
import type { TrayAction, TrayIconKind } from './tray-view.ts';

/** The tray image file for a state: monochrome templates on macOS (the menu bar tints them), colour elsewhere. */
export function trayImagePath(trayDir: string, kind: TrayIconKind, platform: NodeJS.Platform): string {
  return path.join(trayDir, platform === 'darwin' ? `${kind}Template.png` : `${kind}.png`);
}

export interface TrayAppDeps {
  /** Resolves once the backend's public config is known and returns the watcher's backend. */
  backend: () => Promise<WatcherBackend>;
  Notification: NotificationCtor;
  createTray: (imagePath: string) => TrayLike;
  buildMenu: (template: MenuItemConstructorOptions[]) => unknown;
  trayDir: string;
  platform: NodeJS.Platform;
  launchAtLogin: ReturnType<typeof createLaunchAtLogin>;
  /** Validates a vigil:// link and shows the window on that page (the deep-link router). */
  openLink: (link: string) => boolean;
  showWindow: () => void;
  /** After a sign-out from the tray the renderer starts again from the (now empty) vault. */
  reloadWindow: () => void;
  quit: () => void;
  log: (message: string) => void;
  formatTime?: (epochMs: number) => string;
  icon?: string;
}

/**
 * The part of Vigil that lives in the tray: the background watcher, its notifications and the tray menu.
 * It runs from start-up to Quit, whether or not the window is open.
 */
export function startTrayApp(deps: TrayAppDeps) {
  const notifier = createNotifier({
    Notification: deps.Notification,
    openLink: deps.openLink,
    log: deps.log,
    icon: deps.icon,
  });
  const formatTime =
    deps.formatTime ??
    ((ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
  let state: WatcherState = { signedIn: false, runningScans: 0, openCriticalAlerts: 0, pausedUntil: null };
  let watcher: ReturnType<typeof createBackgroundWatcher> | null = null;

  const tray = createTrayController({
    createTray: deps.createTray,
    buildMenu: deps.buildMenu,
    image: (kind) => trayImagePath(deps.trayDir, kind, deps.platform),
    platform: deps.platform,
    onAction: (a) => act(a),
  });
  const render = () => tray.update({ ...state, launchAtLogin: deps.launchAtLogin.isEnabled(), formatTime });

  function act(action: TrayAction): void {
    switch (action) {
      case 'open':
      case 'sign-in':
        return deps.showWindow();
      case 'run-scan':
        deps.openLink('vigil://dashboard/security-automation');
        return;
      case 'open-alerts':
        deps.openLink('vigil://dashboard/alerts');
        return;
      case 'pause':
        return watcher?.pause();
      case 'resume':
        return watcher?.resume();
      case 'toggle-launch-at-login':
        deps.launchAtLogin.setEnabled(!deps.launchAtLogin.isEnabled());
        return render();
      case 'sign-out':
        void watcher
          ?.signOut()
          .then(() => deps.reloadWindow())
          .catch((e: unknown) => deps.log(`sign-out failed: ${e instanceof Error ? e.message : String(e)}`));
        return;
      case 'quit':
        return deps.quit();
    }
  }

  render();
  const ready = deps.backend().then(async (backend) => {
    watcher = createBackgroundWatcher({
      backend,
      notify: (intent: NotificationIntent) => void notifier.show(intent),
      onState: (s) => {
        state = s;
        render();
      },
      log: deps.log,
    });
    await watcher.start();
  });

  return {
    act,
    ready,
    /** The renderer wrote or removed the session in the vault (sign-in, refresh, sign-out). */
    sessionChanged: () => void watcher?.sessionChanged(),
    state: () => state,
    async stop(): Promise<void> {
      await watcher?.stop();
      tray.destroy();
    },
  };
}
