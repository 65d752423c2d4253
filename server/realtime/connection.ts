import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { z } from 'zod';
import type { KeyRing } from '../keys.ts';
import { FilterError } from './filters.ts';
import { decodeFrame, encodeFrame, FrameError, type PhxMessage, type Vsn } from './frames.ts';
import type { RealtimeHub } from './hub.ts';
import { joinPayloadSchema, parseBindings } from './join.ts';
import { unpublishedBindings } from './publication.ts';
import type { Database } from '../db/database.ts';
import { authorizeJoin, maySend, reauthorize, readDenied } from './private-channel.ts';
import { SocketChannel } from './socket-channel.ts';
import {
  isSessionlessToken,
  isSubscriber,
  verifySubscriber,
  type SubscriberAuth,
} from './subscriber-auth.ts';

const MAX_CHANNELS = 100;
/** A client that reads slower than the server writes is dropped before its backlog eats the memory. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

const broadcastSchema = z.object({
  type: z.literal('broadcast').optional(),
  event: z.string().max(255),
  payload: z.unknown(),
});
const presenceSchema = z.object({
  type: z.literal('presence').optional(),
  event: z.enum(['track', 'untrack']),
  payload: z.record(z.string(), z.unknown()).optional(),
});
const accessTokenSchema = z.object({ access_token: z.string().nullish() });

export interface ConnectionDeps {
  hub: RealtimeHub;
  keys: KeyRing;
  db: Database;
  apikey: string;
  apikeyAuth: SubscriberAuth;
}

/** One WebSocket: decodes frames, keeps its joined channels and answers as Realtime's socket does. */
export class Connection {
  lastSeen = Date.now();
  private readonly channels = new Map<string, SocketChannel>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    private readonly deps: ConnectionDeps,
  ) {
    ws.on('message', (data, isBinary) => {
      this.lastSeen = Date.now();
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      // Frames are handled one at a time, so a broadcast never overtakes the join before it.
      this.queue = this.queue.then(() => this.receive(buf, isBinary));
    });
    ws.on('close', () => this.closeAll());
    ws.on('error', () => ws.terminate());
  }

  send(m: PhxMessage): void {
    this.write(encodeFrame(m, this.vsn));
  }

  sendBinary(frame: Buffer): void {
    this.write(frame);
  }

  terminate(): void {
    this.ws.terminate();
  }

  private write(data: string | Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) {
      return;
    }
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(data);
  }

  private async receive(buf: Buffer, isBinary: boolean): Promise<void> {
    let m: PhxMessage;
    try {
      m = decodeFrame(buf, isBinary, this.vsn);
    } catch (e) {
      // An undecodable frame has no ref to answer; like Phoenix, the socket is closed.
      this.ws.close(1007, e instanceof FrameError ? e.message.slice(0, 120) : 'bad frame');
      return;
    }
    try {
      await this.route(m);
    } catch (e) {
      // One bad message must never take the server down; the client learns its push failed.
      console.error('realtime: message failed', e);
      this.reply(m, 'error', { reason: 'Internal error' });
    }
  }

  private reply(m: PhxMessage, status: 'ok' | 'error', response: unknown): void {
    this.send({
      joinRef: m.joinRef,
      ref: m.ref,
      topic: m.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }

  private async route(m: PhxMessage): Promise<void> {
    if (m.topic === 'phoenix') {
      if (m.event === 'heartbeat') {
        this.reply(m, 'ok', {});
      }
      return;
    }
    if (m.event === 'phx_join') {
      await this.join(m);
      return;
    }
    const channel = this.channels.get(m.topic);
    if (!channel) {
      this.reply(m, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (m.event) {
      case 'phx_leave':
        this.leave(channel);
        this.reply(m, 'ok', {});
        return;
      case 'access_token':
        await this.updateToken(channel, m);
        return;
      case 'broadcast':
        return this.broadcast(channel, m);
      case 'presence':
        return this.presence(channel, m);
      default:
        this.reply(m, 'error', { reason: `unknown event: ${m.event.slice(0, 64)}` });
    }
  }

  private async authFor(token: unknown): Promise<SubscriberAuth | { reason: string }> {
    if (isSessionlessToken(token, this.deps.apikey)) {
      return this.deps.apikeyAuth;
    }
    return verifySubscriber(this.deps.keys, token as string);
  }

  private async join(m: PhxMessage): Promise<void> {
    const parsed = joinPayloadSchema.safeParse(m.payload);
    if (!m.topic.startsWith('realtime:') || m.topic.length > 255) {
      this.reply(m, 'error', { reason: 'Topic must be realtime:<name> of at most 255 bytes' });
      return;
    }
    if (!parsed.success) {
      this.reply(m, 'error', {
        reason: `Invalid join payload: ${parsed.error.issues[0]?.message ?? 'malformed'}`,
      });
      return;
    }
    if (this.channels.size >= MAX_CHANNELS && !this.channels.has(m.topic)) {
      this.reply(m, 'error', { reason: 'ChannelRateLimitReached: Too many channels' });
      return;
    }
    const { config, access_token } = parsed.data;
    const auth = await this.authFor(access_token);
    if (!isSubscriber(auth)) {
      this.reply(m, 'error', { reason: `InvalidJWTToken: ${auth.reason}` });
      return;
    }
    const subTopic = m.topic.slice('realtime:'.length);
    // Private channels: the subscriber's SELECT policies on realtime.messages decide (Realtime Authorization).
    const policies = config.private
      ? await authorizeJoin(this.deps.db, auth, subTopic, config.presence?.enabled === true)
      : null;
    if (config.private && !policies) {
      this.reply(m, 'error', { reason: readDenied(subTopic) });
      return;
    }
    let bindings;
    try {
      bindings = parseBindings(config.postgres_changes ?? []);
    } catch (e) {
      if (!(e instanceof FilterError)) {
        throw e;
      }
      this.reply(m, 'error', { reason: `Invalid postgres_changes binding: ${e.message}` });
      return;
    }
    const missing =
      bindings.bindings.length > 0 ? await unpublishedBindings(this.deps.db, bindings.bindings) : null;
    const old = this.channels.get(m.topic);
    if (old) {
      this.leave(old);
    }
    const channel = new SocketChannel(this, {
      topic: m.topic,
      joinRef: m.joinRef,
      self: config.broadcast?.self === true,
      ack: config.broadcast?.ack === true,
      presenceKey: config.presence?.key || randomUUID(),
      isPrivate: config.private === true,
      policies,
      auth,
      bindings: bindings.bindings,
    });
    // From here to the reply nothing awaits: the channel is live when the client learns it is joined,
    // and no change can reach the client before its join reply.
    this.channels.set(m.topic, channel);
    this.deps.hub.add(channel);
    this.reply(m, 'ok', { postgres_changes: bindings.reply });
    if (bindings.bindings.length > 0) {
      channel.system(missing ?? 'Subscribed to PostgreSQL', missing ? 'error' : 'ok', 'postgres_changes');
    }
    if (config.presence?.enabled) {
      this.deps.hub.syncPresence(channel);
    }
    channel.watchExpiry(() => this.expel(channel, 'Token has expired 0 seconds ago'));
  }

  private async updateToken(channel: SocketChannel, m: PhxMessage): Promise<void> {
    const parsed = accessTokenSchema.safeParse(m.payload);
    const token = parsed.success ? parsed.data.access_token : null;
    // Realtime ignores a missing, sessionless or unchanged token and never replies to this push.
    if (isSessionlessToken(token, this.deps.apikey) || token === channel.auth.token) {
      return;
    }
    const auth = await verifySubscriber(this.deps.keys, token as string);
    if (!isSubscriber(auth)) {
      this.expel(channel, auth.reason);
      return;
    }
    if (channel.isPrivate) {
      const policies = await reauthorize(this.deps.db, channel, auth);
      if (!policies) {
        this.expel(
          channel,
          `You no longer have permission to read from this Channel topic: ${channel.subTopic}`,
        );
        return;
      }
      channel.policies = policies;
    }
    channel.auth = auth;
    channel.watchExpiry(() => this.expel(channel, 'Token has expired 0 seconds ago'));
  }

  /** Ends a channel from the server side: a system error, then phx_close (docs/reference/realtime.md §7). */
  private expel(channel: SocketChannel, reason: string): void {
    if (this.channels.get(channel.topic) !== channel) {
      return;
    }
    channel.system(reason, 'error', 'system');
    channel.push('phx_close', {});
    this.leave(channel);
  }

  private async broadcast(channel: SocketChannel, m: PhxMessage): Promise<void> {
    const parsed = broadcastSchema.safeParse(m.payload);
    if (!parsed.success) {
      this.reply(m, 'error', { reason: 'Invalid broadcast: needs an event name' });
      return;
    }
    // Without a write policy Realtime drops the message silently, with no ack either.
    if (!(await maySend(this.deps.db, channel, 'broadcast'))) {
      return;
    }
    this.deps.hub.broadcast(channel.topic, parsed.data.event, parsed.data.payload ?? {}, channel);
    if (channel.ack) {
      this.reply(m, 'ok', {});
    }
  }

  private async presence(channel: SocketChannel, m: PhxMessage): Promise<void> {
    const parsed = presenceSchema.safeParse(m.payload);
    if (!parsed.success) {
      this.reply(m, 'error', { reason: 'Invalid presence message: event must be track or untrack' });
      return;
    }
    if (parsed.data.event === 'track' && !(await maySend(this.deps.db, channel, 'presence'))) {
      // Realtime's `{:reply, :error, socket}`: an error status with an empty response.
      this.reply(m, 'error', {});
      return;
    }
    if (parsed.data.event === 'track') {
      this.deps.hub.track(channel, parsed.data.payload ?? {});
    } else {
      this.deps.hub.untrack(channel);
    }
    this.reply(m, 'ok', {});
  }

  private leave(channel: SocketChannel): void {
    channel.stopExpiry();
    this.deps.hub.remove(channel);
    this.channels.delete(channel.topic);
  }

  private closeAll(): void {
    for (const channel of [...this.channels.values()]) {
      this.leave(channel);
    }
  }
}
