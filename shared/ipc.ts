import { z } from 'zod';

/**
 * The desktop bridge's contract: one channel per message (never a generic send), each with the zod schema
 * its payload must pass in the main process. Channel names are an `as const` object, not an enum.
 */
export const IpcChannel = {
  vaultGet: 'vault:get',
  vaultSet: 'vault:set',
  vaultRemove: 'vault:remove',
  vaultStatus: 'vault:status',
  openExternal: 'shell:open-external',
  saveReport: 'report:save',
  /** main → renderer: a validated deep link to navigate to. */
  deepLink: 'deep-link:navigate',
} as const;

export type IpcChannelName = (typeof IpcChannel)[keyof typeof IpcChannel];

const vaultKey = z.string().min(1).max(200);

export const IpcPayload = {
  [IpcChannel.vaultGet]: z.tuple([vaultKey]),
  [IpcChannel.vaultSet]: z.tuple([vaultKey, z.string().max(64 * 1024)]),
  [IpcChannel.vaultRemove]: z.tuple([vaultKey]),
  [IpcChannel.vaultStatus]: z.tuple([]),
  [IpcChannel.openExternal]: z.tuple([z.string().url().max(2048)]),
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
