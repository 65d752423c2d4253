/**
 * The desktop bridge's channel names: one channel per message, never a generic send. An `as const` object,
 * not an enum. Kept apart from the payload schemas (shared/ipc.ts) so the sandboxed preload stays small.
 */
export const IpcChannel = {
  configGet: 'config:get',
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
