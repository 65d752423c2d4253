import { randomBytes } from 'node:crypto';
import type { ChannelPeer } from './peer.ts';

type Meta = Record<string, unknown> & { phx_ref: string };
type PresenceMap = Record<string, { metas: Meta[] }>;

/**
 * Every joined channel of every socket, by topic: fans out broadcasts (from sockets and from the REST
 * endpoint) and presence, and lists the channels with postgres_changes bindings for the change feed.
 */
export class RealtimeHub {
  private readonly byTopic = new Map<string, Set<ChannelPeer>>();
  private readonly withBindings = new Set<ChannelPeer>();
  /** topic → peer id → its tracked presence (one per channel, as Realtime keeps it). */
  private readonly presences = new Map<string, Map<number, { key: string; meta: Meta }>>();

  add(peer: ChannelPeer): void {
    let peers = this.byTopic.get(peer.topic);
    if (!peers) {
      peers = new Set();
      this.byTopic.set(peer.topic, peers);
    }
    peers.add(peer);
    if (peer.bindings.length > 0) {
      this.withBindings.add(peer);
    }
  }

  remove(peer: ChannelPeer): void {
    this.untrack(peer);
    this.withBindings.delete(peer);
    const peers = this.byTopic.get(peer.topic);
    peers?.delete(peer);
    if (peers?.size === 0) {
      this.byTopic.delete(peer.topic);
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

  /** Delivers a user broadcast to the topic's channels; the sender only when it asked for `self`. */
  broadcast(topic: string, event: string, payload: unknown, sender?: ChannelPeer): void {
    for (const peer of this.byTopic.get(topic) ?? []) {
      if (peer === sender && !peer.self) {
        continue;
      }
      if (Buffer.isBuffer(payload)) {
        peer.pushBinaryBroadcast(event, payload);
      } else {
        peer.push('broadcast', { type: 'broadcast', event, payload });
      }
    }
  }

  presenceState(topic: string): PresenceMap {
    const state: PresenceMap = {};
    for (const { key, meta } of this.presences.get(topic)?.values() ?? []) {
      (state[key] ??= { metas: [] }).metas.push(meta);
    }
    return state;
  }

  /** Sends the topic's presence state to a channel once, so the client applies the diffs that follow. */
  syncPresence(peer: ChannelPeer): void {
    if (!peer.presenceSynced) {
      peer.presenceSynced = true;
      peer.push('presence_state', this.presenceState(peer.topic));
    }
  }

  track(peer: ChannelPeer, payload: Record<string, unknown>): void {
    let tracked = this.presences.get(peer.topic);
    if (!tracked) {
      tracked = new Map();
      this.presences.set(peer.topic, tracked);
    }
    const previous = tracked.get(peer.id);
    const meta: Meta = { ...payload, phx_ref: randomBytes(9).toString('base64url') };
    if (previous) {
      meta.phx_ref_prev = previous.meta.phx_ref;
    }
    tracked.set(peer.id, { key: peer.presenceKey, meta });
    this.syncPresence(peer);
    this.presenceDiff(
      peer.topic,
      { [peer.presenceKey]: { metas: [meta] } },
      previous ? { [previous.key]: { metas: [previous.meta] } } : {},
    );
  }

  untrack(peer: ChannelPeer): void {
    const tracked = this.presences.get(peer.topic);
    const previous = tracked?.get(peer.id);
    if (!tracked || !previous) {
      return;
    }
    tracked.delete(peer.id);
    if (tracked.size === 0) {
      this.presences.delete(peer.topic);
    }
    this.presenceDiff(peer.topic, {}, { [previous.key]: { metas: [previous.meta] } });
  }

  private presenceDiff(topic: string, joins: PresenceMap, leaves: PresenceMap): void {
    for (const peer of this.byTopic.get(topic) ?? []) {
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
