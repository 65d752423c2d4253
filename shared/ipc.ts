import { z } from 'zod';

import { IpcChannel } from './ipc-channels.ts';

export { IpcChannel };

const vaultKey = z.string().min(1).max(200);

/** The schema each invoke channel's arguments must pass in the main process. */
export const IpcPayload = {
  [IpcChannel.configGet]: z.tuple([]),
  [IpcChannel.vaultGet]: z.tuple([vaultKey]),
  [IpcChannel.vaultSet]: z.tuple([vaultKey, z.string().max(64 * 1024)]),
  [IpcChannel.vaultRemove]: z.tuple([vaultKey]),
  [IpcChannel.vaultStatus]: z.tuple([]),
  // 8 kB: the biometric hand-off's relay URL carries the WebAuthn options in its fragment.
  [IpcChannel.openExternal]: z.tuple([z.string().url().max(8192)]),
  [IpcChannel.saveReport]: z.tuple([
    z.object({
      url: z.string().url().max(4096),
      suggestedName: z
        .string()
        .regex(/^[\w .()-]{1,120}\.(pdf|csv|json)$/, 'a plain file name ending in .pdf, .csv or .json'),
    }),
  ]),
} as const;

export type InvokeChannel = keyof typeof IpcPayload;
export type IpcArgs<C extends InvokeChannel> = z.infer<(typeof IpcPayload)[C]>;
