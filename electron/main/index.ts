// The Vigil desktop main process, as a table of contents: each concern is a small module with its
// Electron dependencies passed in (see the modules' tests).
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
  Tray,
} from 'electron';
import Store from 'electron-store';
import { autoUpdater } from 'electron-updater';
import { IpcChannel } from '../../shared/ipc-channels.ts';
import { deepLinkFromArgv, DEEP_LINK_SCHEME } from '../../shared/deep-links.ts';
import {
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  contentSecurityPolicy,
  resolveAppPath,
} from './app-scheme.ts';
import { appMenuTemplate } from './app-menu.ts';
import { checkForUpdates } from './auto-update.ts';
import { apiUrlFromEnv, fetchPublicConfig, type PublicConfig, webUrlFromEnv } from './backend-config.ts';
import {
  createMainSupabase,
  observeWrites,
  retrying,
  supabaseWatcherBackend,
} from './background-watcher-supabase.ts';
import { registerBridgeHandlers } from './bridge-handlers.ts';
import { enableCloseToTray } from './close-to-tray.ts';
import { createDeepLinkRouter } from './deep-link-router.ts';
import { createValidatedIpc } from './ipc.ts';
import { createLaunchAtLogin, nodeAutostartFs } from './launch-at-login.ts';
import { applySecurityRules, DEFAULT_EXTERNAL_ORIGINS } from './security-rules.ts';
import { createVault } from './vault.ts';
import { startTrayApp } from './tray-app.ts';
import { createMainWindow } from './window.ts';
import { DesktopSettings, readSettings } from '../../shared/settings.ts';

const distDir = path.join(app.getAppPath(), 'dist');
const webDir = path.join(distDir, 'web');
/** The desktop's settings (shared/settings.ts), parsed once: a value that means nothing stops Vigil at start. */
function desktopSettings(): DesktopSettings {
  try {
    return readSettings(DesktopSettings, process.env);
  } catch (e) {
    dialog.showErrorBox('Vigil cannot start', e instanceof Error ? e.message : String(e));
    app.exit(1);
    throw e;
  }
}
const settings = desktopSettings();
const apiUrl = apiUrlFromEnv(settings);
const externalOrigins = [...DEFAULT_EXTERNAL_ORIGINS, apiUrl];
const webUrl = webUrlFromEnv(settings, apiUrl);
const resourcesDir = app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'resources');
const log = (m: string) => console.log(`[vigil] ${m}`);

protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;
/** Shows the window, creating it first when Vigil started in the tray (launch at login). */
const focus = () => {
  // Before ready (an early macOS open-url) no window can exist yet; start() creates it.
  if (!mainWindow && !app.isReady()) {
    return;
  }
  const win = (mainWindow ??= openWindow());
  if (win.isMinimized()) {
    win.restore();
  }
  win.show();
  win.focus();
};
const launchAtLogin = createLaunchAtLogin({
  app,
  platform: process.platform,
  executable: process.env.APPIMAGE ?? process.execPath,
  configHome: process.env.XDG_CONFIG_HOME ?? path.join(app.getPath('home'), '.config'),
  fs: nodeAutostartFs,
});
const router = createDeepLinkRouter({
  send: (m) => mainWindow?.webContents.send(IpcChannel.deepLink, m),
  focus,
  log,
});

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the window; it receives this process's argv (and deep link) through second-instance.
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkFromArgv(argv);
    if (link) {
      router.handle(link);
    }
    focus();
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    router.handle(url);
  });
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [path.resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  void app.whenReady().then(start);
}

function start(): void {
  const csp = contentSecurityPolicy(apiUrl);
  protocol.handle(APP_SCHEME, async (request) => {
    const resolved = resolveAppPath(request.url, webDir);
    if ('error' in resolved) {
      return new Response(null, { status: resolved.error });
    }
    try {
      return new Response(await readFile(resolved.file), {
        headers: {
          'content-type': resolved.contentType,
          'content-security-policy': csp,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
  applySecurityRules({
    onWebContentsCreated: (l) => app.on('web-contents-created', (_e, contents) => l(contents)),
    setPermissionRequestHandler: (h) => session.defaultSession.setPermissionRequestHandler(h),
    setPermissionCheckHandler: (h) => session.defaultSession.setPermissionCheckHandler(h),
    openExternal: (url) => shell.openExternal(url),
    externalOrigins,
    log,
  });
  let config: Promise<PublicConfig> | null = null;
  const vault = createVault(safeStorage, new Store<Record<string, string>>({ name: 'vault' }));
  const loadConfig = () =>
    (config ??= fetchPublicConfig(apiUrl, (url, init) => net.fetch(url, init)).catch((e: unknown) => {
      config = null;
      throw e;
    }));
  registerBridgeHandlers({
    ipc: createValidatedIpc(ipcMain, APP_ORIGIN),
    // The renderer's sign-in, refresh and sign-out reach the tray's watcher through the shared vault.
    vault: observeWrites(vault, () => trayApp.sessionChanged()),
    config: loadConfig,
    openExternal: (url) => shell.openExternal(url),
    externalOrigins,
    webUrl,
    chooseSavePath: async (name) => {
      const r = await dialog.showSaveDialog({ defaultPath: path.join(app.getPath('downloads'), name) });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    fetch: (url, init) => net.fetch(url, init),
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        platform: process.platform,
        apiUrl,
        externalOrigins,
        openExternal: (url) => shell.openExternal(url),
        openLink: (link) => void router.handle(link),
        isDev: !app.isPackaged,
        log,
      }),
    ),
  );
  const trayApp = startTrayApp({
    backend: () =>
      retrying('backend config', loadConfig, log).then((c) =>
        supabaseWatcherBackend(createMainSupabase(c, vault), log),
      ),
    Notification,
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    trayDir: path.join(resourcesDir, 'tray'),
    platform: process.platform,
    launchAtLogin,
    openLink: (link) => router.handle(link),
    showWindow: focus,
    reloadWindow: () => mainWindow?.webContents.reload(),
    quit: () => app.quit(),
    log,
  });
  if (!launchAtLogin.startedAtLogin(process.argv)) {
    mainWindow = openWindow();
  }
  void checkForUpdates({ autoUpdater, isPackaged: app.isPackaged, env: settings, log });
  const startupLink = deepLinkFromArgv(process.argv);
  if (startupLink) {
    router.handle(startupLink);
  }
}

function openWindow(): BrowserWindow {
  const win = createMainWindow(BrowserWindow, path.join(distDir, 'electron', 'preload.cjs'));
  win.webContents.once('did-finish-load', () => router.markReady());
  enableCloseToTray({
    app,
    window: win,
    platform: process.platform,
    show: focus,
    onFirstHide: () => {
      if (process.platform !== 'darwin') {
        new Notification({
          title: 'Vigil is still running',
          body: 'It keeps watching from the tray.',
        }).show();
      }
    },
  });
  return win;
}
