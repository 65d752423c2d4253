import type { ChannelPolicies, Extension } from './channel-policies.ts';
import type { Condition } from './filters.ts';
import type { SubscriberAuth } from './subscriber-auth.ts';

export type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE';

/** One postgres_changes binding of a joined channel, with the id the join reply gave the client. */
export interface PgBinding {
  id: number;
  event: ChangeEvent | '*';
  schema: string;
  /** null: every table of the schema. */
  table: string | null;
  conditions: Condition[];
}

/** One channel joined on one socket: what the hub fans broadcasts, presence and changes out to. */
export interface ChannelPeer {
  readonly id: number;
  readonly topic: string;
  readonly joinRef: string | null;
  /** broadcast.self: the sender receives its own broadcasts. */
  readonly self: boolean;
  readonly presenceKey: string;
  /** config.private: a separate topic from the public channel of the same name, authorised by policies. */
  readonly isPrivate: boolean;
  /** What the subscriber's policies on realtime.messages allow (null on public channels). */
  policies: ChannelPolicies | null;
  auth: SubscriberAuth;
  bindings: PgBinding[];
  /** presence_state was sent, so presence_diff messages will be applied by the client. */
  presenceSynced: boolean;
  push(event: string, payload: unknown): void;
  pushBinaryBroadcast(event: string, payload: Buffer): void;
}

/** Whether a channel may receive an extension's messages: always on public channels, by policy on private ones. */
export const mayReceive = (peer: ChannelPeer, extension: Extension): boolean =>
  !peer.isPrivate || peer.policies?.[extension].read === true;
