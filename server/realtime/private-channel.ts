import type { Database } from '../db/database.ts';
import { mayWrite, readPolicies, type ChannelPolicies, type Extension } from './channel-policies.ts';
import type { SocketChannel } from './socket-channel.ts';
import type { SubscriberAuth } from './subscriber-auth.ts';

/** The join error Realtime answers when no read policy admits the subscriber. */
export const readDenied = (subTopic: string) =>
  `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`;

/**
 * Evaluates a private channel's read policies at join (presence only when the client enabled it, as
 * Realtime does). Returns the policies, or null when the subscriber may read neither extension.
 */
export async function authorizeJoin(
  db: Database,
  auth: SubscriberAuth,
  subTopic: string,
  presenceEnabled: boolean,
): Promise<ChannelPolicies | null> {
  const read = await readPolicies(
    db,
    auth,
    subTopic,
    presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'],
  );
  if (read.broadcast !== true && read.presence !== true) {
    return null;
  }
  return {
    broadcast: { read: read.broadcast === true, write: null },
    presence: { read: read.presence, write: null },
  };
}

/**
 * Whether the channel may send on an extension: always on public channels; on private ones the INSERT
 * policy decides, checked on first use and remembered until the token changes (Realtime's write check).
 */
export async function maySend(db: Database, channel: SocketChannel, extension: Extension): Promise<boolean> {
  const policies = channel.policies;
  if (!channel.isPrivate || !policies) {
    return !channel.isPrivate;
  }
  if (extension === 'presence' && policies.presence.read === null) {
    // Presence enabled by this first track: its read policy is evaluated now, so diffs can be gated.
    policies.presence.read = (await readPolicies(db, channel.auth, channel.subTopic, ['presence'])).presence;
  }
  const write = policies[extension].write ?? (await mayWrite(db, channel.auth, channel.subTopic, extension));
  policies[extension].write = write;
  return write;
}

/**
 * Re-evaluates a private channel's policies for a new token. Returns the new policies, or null when a read
 * permission the old token had is gone (Realtime then closes the channel).
 */
export async function reauthorize(
  db: Database,
  channel: SocketChannel,
  auth: SubscriberAuth,
): Promise<ChannelPolicies | null> {
  const before = channel.policies;
  const presenceChecked = before?.presence.read !== null && before?.presence.read !== undefined;
  const read = await readPolicies(
    db,
    auth,
    channel.subTopic,
    presenceChecked ? ['broadcast', 'presence'] : ['broadcast'],
  );
  const revoked =
    (before?.broadcast.read === true && read.broadcast !== true) ||
    (before?.presence.read === true && read.presence !== true);
  if (revoked || (read.broadcast !== true && read.presence !== true)) {
    return null;
  }
  return {
    broadcast: { read: read.broadcast === true, write: null },
    presence: { read: read.presence, write: null },
  };
}
