import { encodeBinaryBroadcast, type PhxMessage, type Vsn } from './frames.ts';
import type { ChannelPolicies } from './channel-policies.ts';
import type { ChannelPeer, PgBinding } from './peer.ts';
import type { SubscriberAuth } from './subscriber-auth.ts';

/** What a channel needs from its socket. */
export interface ChannelSocket {
  readonly vsn: Vsn;
  send(m: PhxMessage): void;
  sendBinary(frame: Buffer): void;
}

export interface ChannelOptions {
  topic: string;
  joinRef: string | null;
  self: boolean;
  ack: boolean;
  presenceKey: string;
  isPrivate: boolean;
  policies: ChannelPolicies | null;
  auth: SubscriberAuth;
  bindings: PgBinding[];
}

const MAX_TIMER_MS = 2 ** 31 - 1;
let nextPeerId = 1;

/** A channel joined on one socket (a Phoenix channel process in Realtime). */
export class SocketChannel implements ChannelPeer {
  readonly id = nextPeerId++;
  readonly topic: string;
  readonly subTopic: string;
  readonly joinRef: string | null;
  readonly self: boolean;
  readonly ack: boolean;
  readonly presenceKey: string;
  readonly isPrivate: boolean;
  policies: ChannelPolicies | null;
  auth: SubscriberAuth;
  bindings: PgBinding[];
  presenceSynced = false;
  private expiry: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: ChannelSocket,
    o: ChannelOptions,
  ) {
    this.topic = o.topic;
    this.subTopic = o.topic.replace(/^realtime:/, '');
    this.joinRef = o.joinRef;
    this.self = o.self;
    this.ack = o.ack;
    this.presenceKey = o.presenceKey;
    this.isPrivate = o.isPrivate;
    this.policies = o.policies;
    this.auth = o.auth;
    this.bindings = o.bindings;
  }

  push(event: string, payload: unknown, ref: string | null = null): void {
    this.socket.send({ joinRef: this.joinRef, ref, topic: this.topic, event, payload });
  }

  pushBinaryBroadcast(event: string, payload: Buffer): void {
    // vsn 1.0.0 has no binary frames; Realtime cannot deliver raw bytes to such clients either.
    if (this.socket.vsn === '2.0.0') {
      this.socket.sendBinary(encodeBinaryBroadcast(this.topic, event, payload));
    }
  }

  /** A system message (docs/reference/realtime.md §4), e.g. "Subscribed to PostgreSQL" or a token error. */
  system(message: string, status: 'ok' | 'error', extension: string): void {
    this.push('system', { message, status, extension, channel: this.subTopic });
  }

  /** Calls `onExpire` when the subscriber's token expires, as Realtime closes channels with stale tokens. */
  watchExpiry(onExpire: () => void): void {
    this.stopExpiry();
    const exp = this.auth.claims.exp;
    const ms = typeof exp === 'number' ? exp * 1000 - Date.now() : Infinity;
    if (ms <= MAX_TIMER_MS) {
      this.expiry = setTimeout(onExpire, Math.max(0, ms));
      this.expiry.unref();
    }
  }

  stopExpiry(): void {
    if (this.expiry) {
      clearTimeout(this.expiry);
      this.expiry = null;
    }
  }
}
