import { writeFile } from 'node:fs/promises';
import { IpcChannel } from '../../shared/ipc.ts';
import type { FetchLike, PublicConfig } from './backend-config.ts';
import type { createValidatedIpc } from './ipc.ts';
import { isAllowedExternal } from './security-rules.ts';
import type { Vault } from './vault.ts';
import { isWebauthnRelayUrl } from './webauthn-relay-url.ts';

export interface BridgeDeps {
  ipc: ReturnType<typeof createValidatedIpc>;
  vault: Vault;
  config: () => Promise<PublicConfig>;
  openExternal(url: string): Promise<void>;
  externalOrigins: readonly string[];
  /** The web app's origin (webUrlFromEnv): its relay page is the one page there the renderer may open. */
  webUrl: string | null;
  /** Asks the user where to save; resolves to the chosen path or null when cancelled. */
  chooseSavePath(suggestedName: string): Promise<string | null>;
  fetch: FetchLike;
}

/** The main-process side of window.vigil: each handler behind the validated IPC gate. */
export function registerBridgeHandlers(d: BridgeDeps): void {
  d.ipc.handle(IpcChannel.configGet, async () => ({ ...(await d.config()), webUrl: d.webUrl }));
  d.ipc.handle(IpcChannel.vaultGet, (key) => d.vault.getItem(key));
  d.ipc.handle(IpcChannel.vaultSet, (key, value) => d.vault.setItem(key, value));
  d.ipc.handle(IpcChannel.vaultRemove, (key) => d.vault.removeItem(key));
  d.ipc.handle(IpcChannel.vaultStatus, () => d.vault.status());
  d.ipc.handle(IpcChannel.openExternal, async (url) => {
    if (!isAllowedExternal(url, d.externalOrigins) && !isWebauthnRelayUrl(url, d.webUrl)) {
      return false;
    }
    await d.openExternal(url);
    return true;
  });
  d.ipc.handle(IpcChannel.saveReport, async ({ url, suggestedName }) => {
    // Reports are downloaded only from the configured backend (its signed storage URLs).
    const { supabaseUrl } = await d.config();
    if (new URL(url).origin !== new URL(supabaseUrl).origin) {
      throw new Error('Reports can only be downloaded from the Vigil backend.');
    }
    const target = await d.chooseSavePath(suggestedName);
    if (!target) {
      return { saved: false };
    }
    const res = await d.fetch(url, { signal: AbortSignal.timeout(60_000) });
    if (!res.ok) {
      throw new Error(`Download failed (${res.status}).`);
    }
    await writeFile(target, Buffer.from(await res.arrayBuffer()));
    return { saved: true, path: target };
  });
}
