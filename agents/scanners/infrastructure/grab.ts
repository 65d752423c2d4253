// One TCP conversation for banner grabbing and service probes: connect, optionally send, read what
// comes back until the peer goes quiet, closes, or the byte limit is reached.
import net from 'node:net';

import { mayConnect } from './connection-meter.ts';

export type Step = (received: Buffer) => Buffer | 'wait' | 'done' | null;

export interface GrabOptions {
  /** How long to wait for the first byte. */
  firstByteMs: number;
  /** How long the peer may stay quiet once it has started talking. */
  idleMs?: number;
  maxBytes?: number;
  /**
   * The whole conversation's deadline, however the peer drips its bytes (every byte restarts the idle
   * wait, so without it a peer sending a byte a second holds the scan). By default the first-byte wait
   * once per message we send, plus one, plus two seconds to connect.
   */
  totalMs?: number;
  /** Ends the conversation at once (scan stopped). */
  signal?: AbortSignal;
  /**
   * Source port to bind (rlogin wants a reserved one). Given as a chooser, a port that cannot be bound
   * (in use, or in TIME_WAIT from an earlier conversation) is replaced by another, up to `bindAttempts`
   * times (a host that ran many r-service conversations within a minute holds many of the 512 reserved
   * ports in TIME_WAIT); a bind error ends the conversation empty otherwise.
   */
  localPort?: number | (() => number);
  /**
   * Further messages, each sent once the peer's answer so far makes its step return one. A step returns
   * 'wait' while the awaited answer is incomplete (the wait for it goes on, up to firstByteMs from the
   * last message), 'done' when the answer is all we wanted (the conversation ends at once), and null
   * when the peer answered something else (the conversation ends once it is quiet).
   */
  then?: Step[];
}

const bindErrors = new Set(['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES']);
/** Source ports tried for one conversation: a failed bind costs no packet, only a system call. */
const bindAttempts = 8;

export async function grab(
  address: string,
  port: number,
  send: Buffer | string | null,
  options: GrabOptions,
): Promise<Buffer> {
  const choose = options.localPort;
  for (let attempt = 1; ; attempt += 1) {
    const localPort = typeof choose === 'function' ? choose() : choose;
    const { data, bindFailed } = await grabOnce(address, port, send, options, localPort);
    if (!bindFailed || typeof choose !== 'function' || attempt === bindAttempts) {
      return data;
    }
  }
}

function grabOnce(
  address: string,
  port: number,
  send: Buffer | string | null,
  options: GrabOptions,
  localPort: number | undefined,
): Promise<{ data: Buffer; bindFailed: boolean }> {
  // Guard: a scan already stopped, or a host whose connection budget is spent, gets no new connection
  // (an aborted signal fires no more events).
  if (options.signal?.aborted || !mayConnect()) {
    return Promise.resolve({ data: Buffer.alloc(0), bindFailed: false });
  }
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let bindFailed = false;
    const steps = [...(options.then ?? [])];
    const socket = net.connect({ host: address, port, localPort });
    let timer = setTimeout(() => finish(), options.firstByteMs + 2000);
    const deadline = setTimeout(
      () => finish(),
      options.totalMs ?? options.firstByteMs * (steps.length + 2) + 2000,
    );
    /** When the answer awaited by the current step is due. */
    let replyBy = Date.now() + options.firstByteMs;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', finish);
      socket.destroy();
      resolve({ data: received, bindFailed });
    };
    socket.once('connect', () => {
      clearTimeout(timer);
      replyBy = Date.now() + options.firstByteMs;
      timer = setTimeout(finish, options.firstByteMs);
      if (send !== null) {
        socket.write(send);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      const maxBytes = options.maxBytes ?? 16_384;
      // Guard: a service that streams forever must not hold the scan nor fill its memory.
      received = Buffer.concat([received, chunk.subarray(0, maxBytes - received.length)]);
      clearTimeout(timer);
      if (received.length >= maxBytes) {
        finish();
        return;
      }
      const next = steps[0];
      if (next) {
        const message = next(received);
        if (message === 'done') {
          finish();
          return;
        }
        if (message === 'wait') {
          timer = setTimeout(finish, Math.max(0, replyBy - Date.now()));
          return;
        }
        if (message) {
          steps.shift();
          let out = message;
          // What already arrived may answer the next step too (a server that sends its greeting and
          // its next message in one segment): send on at once; anything else waits for more data.
          for (
            let more = steps[0]?.(received);
            more !== undefined && more !== null && more !== 'wait';
            more = steps[0]?.(received)
          ) {
            if (more === 'done') {
              finish();
              return;
            }
            steps.shift();
            out = Buffer.concat([out, more]);
          }
          replyBy = Date.now() + options.firstByteMs;
          timer = setTimeout(finish, options.firstByteMs);
          socket.write(out);
          return;
        }
        steps.length = 0;
      }
      timer = setTimeout(finish, options.idleMs ?? 120);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      bindFailed = localPort !== undefined && error.syscall === 'bind' && bindErrors.has(error.code ?? '');
      finish();
    });
    socket.once('close', finish);
    options.signal?.addEventListener('abort', finish, { once: true });
  });
}
