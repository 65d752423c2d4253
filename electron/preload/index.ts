// The desktop bridge, exposed to the renderer as window.vigil: one function per message, nothing generic.
// The renderer takes its type from here (typeof bridge), as Bitwarden's desktop does.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IpcChannel } from '../../shared/ipc-channels.ts';
import type { DeepLinkMessage } from '../../shared/deep-links.ts';

const bridge = {
  platform: process.platform,
  config: (): Promise<{ supabaseUrl: string; supabaseAnonKey: string; webUrl: string | null }> =>
    ipcRenderer.invoke(IpcChannel.configGet),
  vault: {
    getItem: (key: string): Promise<string | null> => ipcRenderer.invoke(IpcChannel.vaultGet, key),
    setItem: (key: string, value: string): Promise<void> =>
      ipcRenderer.invoke(IpcChannel.vaultSet, key, value),
    removeItem: (key: string): Promise<void> => ipcRenderer.invoke(IpcChannel.vaultRemove, key),
    status: (): Promise<{ persistent: boolean; reason?: string }> =>
      ipcRenderer.invoke(IpcChannel.vaultStatus),
  },
  openExternal: (url: string): Promise<boolean> => ipcRenderer.invoke(IpcChannel.openExternal, url),
  saveReport: (url: string, suggestedName: string): Promise<{ saved: boolean; path?: string }> =>
    ipcRenderer.invoke(IpcChannel.saveReport, { url, suggestedName }),
  onDeepLink(listener: (message: DeepLinkMessage) => void): () => void {
    const wrapped = (_event: IpcRendererEvent, message: DeepLinkMessage) => listener(message);
    ipcRenderer.on(IpcChannel.deepLink, wrapped);
    return () => ipcRenderer.removeListener(IpcChannel.deepLink, wrapped);
  },
};

export type VigilBridge = typeof bridge;

contextBridge.exposeInMainWorld('vigil', bridge);
