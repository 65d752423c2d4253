import { describe, expect, it, vi } from 'vitest';
import { IpcChannel } from '../../shared/ipc.ts';
import { createValidatedIpc, type InvokeEventLike } from './ipc.ts';

const APP = 'app://vigil';

function setup() {
  const listeners = new Map<string, (e: InvokeEventLike, ...a: unknown[]) => unknown>();
  const ipc = createValidatedIpc({ handle: (c, l) => listeners.set(c, l) }, APP);
  const handler = vi.fn((key: string) => `value-of-${key}`);
  ipc.handle(IpcChannel.vaultGet, handler);
  const call = (event: InvokeEventLike, ...args: unknown[]) =>
    listeners.get(IpcChannel.vaultGet)!(event, ...args);
  return { handler, call };
}

const mainFrame = (url: string) => ({ senderFrame: { url, parent: null } });

describe('validated IPC', () => {
  it('passes a well-formed message from the app main frame', () => {
    const { handler, call } = setup();
    expect(call(mainFrame('app://vigil/dashboard'), 'sb-127-auth-token')).toBe('value-of-sb-127-auth-token');
    expect(handler).toHaveBeenCalledOnce();
  });

  it.each([
    ['a foreign origin', mainFrame('https://evil.example/'), ['sb-127-auth-token']],
    ['a look-alike origin', mainFrame('app://vigil.evil/'), ['sb-127-auth-token']],
    ['a file: page', mainFrame('file:///tmp/x.html'), ['sb-127-auth-token']],
    ['a subframe of the app', { senderFrame: { url: 'app://vigil/', parent: {} } }, ['sb-127-auth-token']],
    ['a destroyed frame', { senderFrame: null }, ['sb-127-auth-token']],
    ['a missing argument', mainFrame('app://vigil/'), []],
    ['a wrong type', mainFrame('app://vigil/'), [{ key: 'x' }]],
    ['extra arguments', mainFrame('app://vigil/'), ['sb-127-auth-token', 'extra']],
    ['an oversized key', mainFrame('app://vigil/'), ['k'.repeat(500)]],
  ])('rejects %s without calling the handler', (_label, event, args) => {
    const { handler, call } = setup();
    expect(() => call(event as InvokeEventLike, ...(args as unknown[]))).toThrow();
    expect(handler).not.toHaveBeenCalled();
  });
});
