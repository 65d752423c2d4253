// The desktop bridge for end-to-end tests: window.vigil in Chromium, shaped like electron/preload, whose calls
// go through the REAL main-process modules running in the test process (validated IPC gate, bridge handlers,
// vault, deep-link router). Only Electron itself is replaced: ipcMain by a handler table, safeStorage by an
// AES-GCM cipher with a random key, electron-store by a Map, the save dialog and shell by recorders.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { fetchPublicConfig, webUrlFromEnv } from '../../electron/main/backend-config.ts';
import { registerBridgeHandlers } from '../../electron/main/bridge-handlers.ts';
import { createDeepLinkRouter } from '../../electron/main/deep-link-router.ts';
import { createValidatedIpc, type IpcMainLike } from '../../electron/main/ipc.ts';
import { DEFAULT_EXTERNAL_ORIGINS } from '../../electron/main/security-rules.ts';
import { createVault, type SafeStorageLike, type Vault } from '../../electron/main/vault.ts';
import type { DeepLinkMessage } from '../../shared/deep-links.ts';
import { IpcChannel } from '../../shared/ipc-channels.ts';

/** Electron's safeStorage with a real cipher: AES-256-GCM under a key that lives only in this process. */
export function cipherSafeStorage(): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

// Runs in every frame before the app: window.vigil as the preload exposes it, over one test binding.
const BRIDGE_SCRIPT = `(() => {
  const invoke = (channel, ...args) => window.__vigilInvoke(channel, ...args);
  const listeners = new Set();
  window.__vigilDeepLinksDelivered = 0;
  window.__vigilEmitDeepLink = (message) => {
    window.__vigilDeepLinksDelivered += 1;
    for (const listener of listeners) listener(message);
  };
  window.vigil = {
    platform: 'linux',
    config: () => invoke('${IpcChannel.configGet}'),
    vault: {
      getItem: (key) => invoke('${IpcChannel.vaultGet}', key),
      setItem: (key, value) => invoke('${IpcChannel.vaultSet}', key, value),
      removeItem: (key) => invoke('${IpcChannel.vaultRemove}', key),
      status: () => invoke('${IpcChannel.vaultStatus}'),
    },
    openExternal: (url) => invoke('${IpcChannel.openExternal}', url),
    saveReport: (url, suggestedName) => invoke('${IpcChannel.saveReport}', { url, suggestedName }),
    onDeepLink(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
})();`;

export interface DesktopHarness {
  vault: Vault;
  /** The ciphertexts electron-store would write to disk, by key. */
  disk: Map<string, string>;
  /** URLs the main process handed to shell.openExternal. */
  opened: string[];
  /** Names the save dialog was asked for, and where files were written. */
  saveRequests: string[];
  saveDir: string;
  router: ReturnType<typeof createDeepLinkRouter>;
  refused: string[];
}

/** Installs the bridge in `context`; deep links are delivered to `page()` once the router is marked ready. */
export async function installDesktopBridge(
  context: BrowserContext,
  appOrigin: string,
  page: () => Page,
): Promise<DesktopHarness> {
  const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
  const ipcMain: IpcMainLike = { handle: (channel, listener) => void handlers.set(channel, listener) };
  const disk = new Map<string, string>();
  const vault = createVault(cipherSafeStorage(), {
    get: (key) => disk.get(key),
    set: (key, value) => void disk.set(key, value),
    delete: (key) => void disk.delete(key),
  });
  const opened: string[] = [];
  const saveRequests: string[] = [];
  const refused: string[] = [];
  const saveDir = await mkdtemp(path.join(tmpdir(), 'vigil-desktop-e2e-'));
  registerBridgeHandlers({
    ipc: createValidatedIpc(ipcMain, appOrigin),
    vault,
    config: () => fetchPublicConfig(appOrigin, fetch),
    openExternal: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
    externalOrigins: [...DEFAULT_EXTERNAL_ORIGINS, appOrigin],
    // As the desktop derives it for the embedded stack: the stack on host localhost.
    webUrl: webUrlFromEnv({}, appOrigin),
    chooseSavePath: (name) => {
      saveRequests.push(name);
      return Promise.resolve(path.join(saveDir, name));
    },
    fetch,
  });
  await context.exposeBinding('__vigilInvoke', (source, channel: string, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) {
      throw new Error(`no handler for ${channel}`);
    }
    // What Electron reports as the invoke event's sender frame: its URL and whether it is a subframe.
    return handler({ senderFrame: { url: source.frame.url(), parent: source.frame.parentFrame() } }, ...args);
  });
  await context.addInitScript(BRIDGE_SCRIPT);
  const router = createDeepLinkRouter({
    send: (message: DeepLinkMessage) => {
      void page()
        .evaluate(
          (m) => (globalThis as unknown as { __vigilEmitDeepLink(m: unknown): void }).__vigilEmitDeepLink(m),
          message,
        )
        .catch(() => undefined);
    },
    focus: () => undefined,
    log: (message) => void refused.push(message),
  });
  return { vault, disk, opened, saveRequests, saveDir, router, refused };
}
