// The Vigil desktop main process, as a table of contents: each concern is a small module with its
// Electron dependencies passed in (see the modules' tests).
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import Store from 'electron-store';
import { IpcChannel } from '../../shared/ipc-channels.ts';
import { deepLinkFromArgv, DEEP_LINK_SCHEME } from '../../shared/deep-links.ts';
import {
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  contentSecurityPolicy,
  resolveAppPath,
} from './app-scheme.ts';
import { apiUrlFromEnv, fetchPublicConfig, type PublicConfig } from './backend-config.ts';
import { registerBridgeHandlers } from './bridge-handlers.ts';
import { createDeepLinkRouter } from './deep-link-router.ts';
import { createValidatedIpc } from './ipc.ts';
import { applySecurityRules, DEFAULT_EXTERNAL_ORIGINS } from './security-rules.ts';
import { createVault } from './vault.ts';
import { createMainWindow } from './window.ts';

const distDir = path.join(app.getAppPath(), 'dist');
const webDir = path.join(distDir, 'web');
const apiUrl = apiUrlFromEnv(process.env);
const externalOrigins = [...DEFAULT_EXTERNAL_ORIGINS, apiUrl];
const log = (m: string) => console.log(`[vigil] ${m}`);

protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;
const focus = () => {
  if (mainWindow) {
    if (mainWindow.isMinimized()) {
      mainWindow.restore();
    }
    mainWindow.show();
    mainWindow.focus();
  }
};
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
  registerBridgeHandlers({
    ipc: createValidatedIpc(ipcMain, APP_ORIGIN),
    vault: createVault(safeStorage, new Store<Record<string, string>>({ name: 'vault' })),
    config: () =>
      (config ??= fetchPublicConfig(apiUrl, (url, init) => net.fetch(url, init)).catch((e: unknown) => {
        config = null;
        throw e;
      })),
    openExternal: (url) => shell.openExternal(url),
    externalOrigins,
    chooseSavePath: async (name) => {
      const r = await dialog.showSaveDialog({ defaultPath: path.join(app.getPath('downloads'), name) });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    fetch: (url, init) => net.fetch(url, init),
  });
  mainWindow = createMainWindow(BrowserWindow, path.join(distDir, 'electron', 'preload.cjs'));
  mainWindow.webContents.once('did-finish-load', () => router.markReady());
  const startupLink = deepLinkFromArgv(process.argv);
  if (startupLink) {
    router.handle(startupLink);
  }
}
