// The tray icon and the background watcher behind it (tray-app.ts): its own subscription to scan results
// and critical events while the window is closed, with native notifications.
import path from 'node:path';
import { app, Menu, Notification, Tray } from 'electron';
import { createMainSupabase, retrying, supabaseWatcherBackend } from '../background-watcher-supabase.ts';
import { startTrayApp } from '../tray-app.ts';
import type { Backend } from './bridge.ts';
import type { MainContext } from './context.ts';
import type { DeepLinks } from './deep-links.ts';
import type { MainWindow } from './main-window.ts';

export type TrayApp = ReturnType<typeof startTrayApp>;

export function initTray(ctx: MainContext, backend: Backend, router: DeepLinks, window: MainWindow): TrayApp {
  return startTrayApp({
    backend: () =>
      retrying('backend config', backend.loadConfig, ctx.log).then((c) =>
        supabaseWatcherBackend(createMainSupabase(c, backend.vault), ctx.log),
      ),
    Notification,
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    trayDir: path.join(ctx.resourcesDir, 'tray'),
    platform: process.platform,
    launchAtLogin: ctx.launchAtLogin,
    openLink: (link) => router.handle(link),
    showWindow: () => window.focus(),
    reloadWindow: () => window.current()?.webContents.reload(),
    quit: () => app.quit(),
    log: ctx.log,
  });
}
