// The Vigil desktop main process, as a table of contents (vite-electron-builder's entry): one line per
// module, in the order they start. Each init in init/ wires its Electron APIs; the logic it wires lives
// in the modules beside this file, with Electron passed in (see their tests).
import { app } from 'electron';
import { initAppMenu } from './init/app-menu.ts';
import { initAppScheme, serveAppScheme } from './init/app-protocol.ts';
import { initAutoUpdate } from './init/auto-update.ts';
import { initBridge } from './init/bridge.ts';
import { createMainContext } from './init/context.ts';
import { createDeepLinks, initDeepLinks, openStartupLink } from './init/deep-links.ts';
import { initMainWindow } from './init/main-window.ts';
import { initTray, type TrayApp } from './init/tray.ts';
import { initWebSecurity } from './init/web-security.ts';

const ctx = createMainContext();
initAppScheme();
const router = createDeepLinks(ctx, () => mainWindow);
const mainWindow = initMainWindow(ctx, () => router.markReady());

if (initDeepLinks(router, mainWindow)) {
  void app.whenReady().then(() => {
    serveAppScheme(ctx);
    initWebSecurity(ctx);
    let tray: TrayApp | null = null;
    const backend = initBridge(ctx, () => tray?.sessionChanged());
    initAppMenu(ctx, router);
    tray = initTray(ctx, backend, router, mainWindow);
    mainWindow.openAtStart();
    initAutoUpdate(ctx);
    openStartupLink(router);
  });
}
