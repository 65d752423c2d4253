import { describe, expect, it, vi } from 'vitest';

import { IpcChannel } from '../../shared/ipc-channels.ts';
import { registerBridgeHandlers } from './bridge-handlers.ts';
import { createValidatedIpc, type IpcMainLike } from './ipc.ts';

const APP = 'app://vigil';

function setup(webUrl: string | null) {
  const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
  const openExternal = vi.fn(() => Promise.resolve());
  registerBridgeHandlers({
    ipc: createValidatedIpc({ handle: (c, l) => void handlers.set(c, l) }, APP),
    vault: {} as never,
    config: () => Promise.resolve({ supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'a'.repeat(40) }),
    openExternal,
    externalOrigins: ['https://github.com'],
    webUrl,
    chooseSavePath: () => Promise.resolve(null),
    fetch,
  });
  const call = (channel: string, ...args: unknown[]) =>
    handlers.get(channel)!({ senderFrame: { url: `${APP}/auth/mfa`, parent: null } }, ...args);
  return { call, openExternal };
}

describe('bridge handlers: opening the browser', () => {
  it('opens allow-listed origins and the web origin’s relay page, nothing else there', async () => {
    const { call, openExternal } = setup('http://localhost:54321');
    const relay = `http://localhost:54321/auth/webauthn-relay#mode=register&state=${'s'.repeat(43)}&options=${'o'.repeat(3000)}`;
    await expect(call(IpcChannel.openExternal, relay)).resolves.toBe(true);
    await expect(call(IpcChannel.openExternal, 'https://github.com/vigil')).resolves.toBe(true);
    await expect(call(IpcChannel.openExternal, 'http://localhost:54321/dashboard')).resolves.toBe(false);
    await expect(
      call(IpcChannel.openExternal, 'http://localhost:54321/auth/webauthn-relay?options=x#y'),
    ).resolves.toBe(false);
    await expect(call(IpcChannel.openExternal, 'https://evil.example/auth/webauthn-relay#x')).resolves.toBe(
      false,
    );
    expect(openExternal.mock.calls).toEqual([[relay], ['https://github.com/vigil']]);
  });

  it('opens no relay page when no web origin is configured', async () => {
    const { call, openExternal } = setup(null);
    await expect(call(IpcChannel.openExternal, 'http://localhost:54321/auth/webauthn-relay#x')).resolves.toBe(
      false,
    );
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('hands the web origin to the renderer with the backend config', async () => {
    await expect(setup('https://app.vigil.dev').call(IpcChannel.configGet)).resolves.toMatchObject({
      webUrl: 'https://app.vigil.dev',
      supabaseUrl: 'http://127.0.0.1:54321',
    });
  });
});
