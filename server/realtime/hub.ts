import { randomBytes } from 'node:crypto';
import { mayReceive, type ChannelPeer } from './peer.ts';

type Meta = Record<string, unknown> & { phx_ref: string };
type PresenceMap = Record<string, { metas: Meta[] }>;

/** Realtime's tenant topic: a private channel never shares messages with the public one of the same name. */
const keyOf = (topic: string, isPrivate: boolean) => `${isPrivate ? 'private' : 'public'}:${topic}`;
const peerKey = (peer: ChannelPeer) => keyOf(peer.topic, peer.isPrivate);

/**
 * Every joined channel of every socket, by topic: fans out broadcasts (from sockets and from the REST
 * endpoint) and presence, and lists the channels with postgres_changes bindings for the change feed.
 */
export class RealtimeHub {
  private readonly byTopic = new Map<string, Set<ChannelPeer>>();
  private readonly withBindings = new Set<ChannelPeer>();
  /** topic key → peer id → its tracked presence (one per channel, as Realtime keeps it). */
  private readonly presences = new Map<string, Map<number, { key: string; meta: Meta }>>();

  add(peer: ChannelPeer): void {
    let peers = this.byTopic.get(peerKey(peer));
    if (!peers) {
      peers = new Set();
      this.byTopic.set(peerKey(peer), peers);
    }
    peers.add(peer);
    if (peer.bindings.length > 0) {
      this.withBindings.add(peer);
    }
  }

  remove(peer: ChannelPeer): void {
    this.untrack(peer);
    this.withBindings.delete(peer);
    const peers = this.byTopic.get(peerKey(peer));
    peers?.delete(peer);
    if (peers?.size === 0) {
      this.byTopic.delete(peerKey(peer));
    }
  }

  /** Channels that listen to postgres_changes. */
  changeListeners(): Iterable<ChannelPeer> {
    return this.withBindings;
  }

  get channelCount(): number {
    let n = 0;
    for (const peers of this.byTopic.values()) {
      n += peers.size;
    }
    return n;
  }

  /**
   * Delivers a user broadcast to the topic's channels (the private or the public ones); the sender only
   * when it asked for `self`, private channels only when their policies let them receive broadcasts.
   */
  broadcast(
    topic: string,
    event: string,
    payload: unknown,
    sender?: ChannelPeer,
    isPrivate = sender?.isPrivate ?? false,
  ): void {
    for (const peer of this.byTopic.get(keyOf(topic, isPrivate)) ?? []) {
      if ((peer === sender && !peer.self) || !mayReceive(peer, 'broadcast')) {
        continue;
      }
      if (Buffer.isBuffer(payload)) {
        peer.pushBinaryBroadcast(event, payload);
      } else {
        peer.push('broadcast', { type: 'broadcast', event, payload });
      }
    }
  }

  private presenceState(topicKey: string): PresenceMap {
    const state: PresenceMap = {};
    for (const { key, meta } of this.presences.get(topicKey)?.values() ?? []) {
      (state[key] ??= { metas: [] }).metas.push(meta);
    }
    return state;
  }

  /** Sends the topic's presence state to a channel once, so the client applies the diffs that follow. */
  syncPresence(peer: ChannelPeer): void {
    // A private channel whose policies deny presence reads learns nothing of who is there.
    if (!peer.presenceSynced && mayReceive(peer, 'presence')) {
      peer.presenceSynced = true;
      peer.push('presence_state', this.presenceState(peerKey(peer)));
    }
  }

  track(peer: ChannelPeer, payload: Record<string, unknown>): void {
    let tracked = this.presences.get(peerKey(peer));
    if (!tracked) {
      tracked = new Map();
      this.presences.set(peerKey(peer), tracked);
    }
    const previous = tracked.get(peer.id);
    const meta: Meta = { ...payload, phx_ref: randomBytes(9).toString('base64url') };
    if (previous) {
      meta.phx_ref_prev = previous.meta.phx_ref;
    }
    tracked.set(peer.id, { key: peer.presenceKey, meta });
    this.syncPresence(peer);
    this.presenceDiff(
      peerKey(peer),
      { [peer.presenceKey]: { metas: [meta] } },
      previous ? { [previous.key]: { metas: [previous.meta] } } : {},
    );
  }

  untrack(peer: ChannelPeer): void {
    const tracked = this.presences.get(peerKey(peer));
    const previous = tracked?.get(peer.id);
    if (!tracked || !previous) {
      return;
    }
    tracked.delete(peer.id);
    if (tracked.size === 0) {
      this.presences.delete(peerKey(peer));
    }
    this.presenceDiff(peerKey(peer), {}, { [previous.key]: { metas: [previous.meta] } });
  }

  private presenceDiff(topicKey: string, joins: PresenceMap, leaves: PresenceMap): void {
    for (const peer of this.byTopic.get(topicKey) ?? []) {
      // A client that never got presence_state would buffer diffs forever; it gets none until synced.
      if (peer.presenceSynced) {
        peer.push('presence_diff', { joins, leaves });
      }
    }
  }
}

const hubs = new WeakMap<object, RealtimeHub>();

/** The one hub of a stack, shared by the WebSocket server and the REST broadcast routes. */
export function hubFor(ctx: object): RealtimeHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new RealtimeHub();
    hubs.set(ctx, hub);
  }
  return hub;
}
