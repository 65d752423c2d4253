import { IpcPayload, type InvokeChannel, type IpcArgs } from '../../shared/ipc.ts';

/** What the wrapper needs of an IPC invoke event (Electron's IpcMainInvokeEvent, narrowed for tests). */
export interface InvokeEventLike {
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
}

export class IpcRejected extends Error {}

/**
 * Registers one handler per channel behind the gate VS Code's validatedIpcMain keeps: the message must
 * come from the app's own origin, from the main frame (never an iframe), and its payload must pass the
 * channel's schema. A rejected message never reaches the handler.
 */
export function createValidatedIpc(ipcMain: IpcMainLike, appOrigin: string) {
  return {
    handle<C extends InvokeChannel>(channel: C, handler: (...args: IpcArgs<C>) => unknown): void {
      ipcMain.handle(channel, (event, ...args) => {
        const frame = event.senderFrame;
        if (!frame || frame.parent !== null) {
          throw new IpcRejected(`${channel}: only the main frame may call the bridge`);
        }
        let origin: string;
        try {
          // URL.origin is "null" for custom schemes such as app://, so compare scheme and host.
          const url = new URL(frame.url);
          origin = `${url.protocol}//${url.host}`;
        } catch {
          throw new IpcRejected(`${channel}: sender has no valid URL`);
        }
        if (origin !== appOrigin) {
          throw new IpcRejected(`${channel}: sender origin ${origin} is not the app`);
        }
        const parsed = IpcPayload[channel].safeParse(args);
        if (!parsed.success) {
          throw new IpcRejected(
            `${channel}: invalid payload (${parsed.error.issues.map((i) => i.message).join('; ')})`,
          );
        }
        return handler(...(parsed.data as IpcArgs<C>));
      });
    },
  };
}
