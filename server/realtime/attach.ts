import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { StackContext } from '../context.ts';
import { startChangeFeed } from './change-feed.ts';
import { Connection } from './connection.ts';
import { hubFor } from './hub.ts';
import { isSubscriber, verifySubscriber } from './subscriber-auth.ts';

export const WEBSOCKET_PATH = '/realtime/v1/websocket';
/** Larger frames close the socket (1009) before they are buffered; Realtime's own limit is similar. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Phoenix drops sockets that sent nothing (not even a heartbeat, every 25 s) for this long. */
const IDLE_MS = 60_000;

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  const reason =
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/**
 * Realtime on the stack's HTTP server: the WebSocket endpoint (apikey checked on the upgrade, wire
 * contract §4.1) and the change feed. Resolves to the function that closes both.
 */
export async function attachRealtime(ctx: StackContext, server: Server): Promise<() => Promise<void>> {
  const hub = hubFor(ctx);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const connections = new Set<Connection>();

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.replace(/\/$/, '') !== WEBSOCKET_PATH) {
      // Other upgrade handlers may own other paths; with none, the socket must not hang open.
      if (server.listenerCount('upgrade') === 1) {
        refuse(socket, 404, 'Not Found');
      }
      return;
    }
    const vsn = url.searchParams.get('vsn') ?? '1.0.0';
    if (vsn !== '1.0.0' && vsn !== '2.0.0') {
      refuse(socket, 400, `Unsupported serializer version ${vsn.slice(0, 20)}`);
      return;
    }
    const apikey = url.searchParams.get('apikey');
    if (!apikey) {
      refuse(socket, 401, 'No API key found in request');
      return;
    }
    const auth = await verifySubscriber(ctx.keys, apikey);
    if (!isSubscriber(auth)) {
      refuse(socket, 403, auth.reason);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new Connection(ws, vsn, { hub, keys: ctx.keys, db: ctx.db, apikey, apikeyAuth: auth });
      connections.add(conn);
      ws.on('close', () => connections.delete(conn));
    });
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((e: unknown) => {
      console.error('realtime: upgrade failed', e);
      socket.destroy();
    });
  };
  server.on('upgrade', onUpgrade);
  const stopFeed = await startChangeFeed(ctx.db, hub);
  const idle = setInterval(() => {
    const cutoff = Date.now() - IDLE_MS;
    for (const conn of connections) {
      if (conn.lastSeen < cutoff) {
        conn.terminate();
      }
    }
  }, IDLE_MS / 2);
  idle.unref();

  return async () => {
    clearInterval(idle);
    server.off('upgrade', onUpgrade);
    for (const conn of connections) {
      conn.terminate();
    }
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await stopFeed();
  };
}
