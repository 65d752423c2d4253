// The renderer's narrow bridge (bridge-handlers.ts) on validated IPC: the session vault, the backend's
// public config, outside links, saving files, fetch through Electron's network stack.
import path from 'node:path';
import { app, dialog, ipcMain, net, safeStorage, shell } from 'electron';
import Store from 'electron-store';
import { APP_ORIGIN } from '../app-scheme.ts';
import { fetchPublicConfig, type PublicConfig } from '../backend-config.ts';
import { observeWrites } from '../background-watcher-supabase.ts';
import { registerBridgeHandlers } from '../bridge-handlers.ts';
import { createValidatedIpc } from '../ipc.ts';
import { createVault, type Vault } from '../vault.ts';
import type { MainContext } from './context.ts';

export interface Backend {
  /** The session vault the renderer and the tray's watcher share. */
  vault: Vault;
  /** The backend's public config, fetched once (again after a failure). */
  loadConfig: () => Promise<PublicConfig>;
}

/** `onSessionChange` runs when the renderer signs in, refreshes or signs out (a vault write). */
export function initBridge(ctx: MainContext, onSessionChange: () => void): Backend {
  let config: Promise<PublicConfig> | null = null;
  const vault = createVault(safeStorage, new Store<Record<string, string>>({ name: 'vault' }));
  const loadConfig = () =>
    (config ??= fetchPublicConfig(ctx.apiUrl, (url, init) => net.fetch(url, init)).catch((e: unknown) => {
      config = null;
      throw e;
    }));
  registerBridgeHandlers({
    ipc: createValidatedIpc(ipcMain, APP_ORIGIN),
    // The renderer's sign-in, refresh and sign-out reach the tray's watcher through the shared vault.
    vault: observeWrites(vault, onSessionChange),
    config: loadConfig,
    openExternal: (url) => shell.openExternal(url),
    externalOrigins: ctx.externalOrigins,
    webUrl: ctx.webUrl,
    chooseSavePath: async (name) => {
      const r = await dialog.showSaveDialog({ defaultPath: path.join(app.getPath('downloads'), name) });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    fetch: (url, init) => net.fetch(url, init),
  });
  return { vault, loadConfig };
}
