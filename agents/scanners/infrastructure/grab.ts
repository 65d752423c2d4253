// One TCP conversation for banner grabbing and service probes: connect, optionally send, read what
// comes back until the peer goes quiet, closes, or the byte limit is reached.
import net from 'node:net';

export interface GrabOptions {
  /** How long to wait for the first byte. */
  firstByteMs: number;
  /** How long the peer may stay quiet once it has started talking. */
  idleMs?: number;
  maxBytes?: number;
  /** Ends the conversation at once (scan stopped). */
  signal?: AbortSignal;
  /** Further messages, each sent after the peer answered the previous one. */
  then?: ((received: Buffer) => Buffer | null)[];
}

export function grab(
  address: string,
  port: number,
  send: Buffer | string | null,
  options: GrabOptions,
): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let steps = [...(options.then ?? [])];
    const socket = net.connect({ host: address, port });
    let timer = setTimeout(() => finish(), options.firstByteMs + 2000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    socket.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(finish, options.firstByteMs);
      if (send !== null) {
        socket.write(send);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      clearTimeout(timer);
      // Guard: a service that streams forever must not hold the scan.
      if (size >= (options.maxBytes ?? 16_384)) {
        finish();
        return;
      }
      const next = steps.shift();
      if (next) {
        const message = next(Buffer.concat(chunks));
        if (message) {
          timer = setTimeout(finish, options.firstByteMs);
          socket.write(message);
          return;
        }
        steps = [];
      }
      timer = setTimeout(finish, options.idleMs ?? 120);
    });
    socket.once('error', finish);
    socket.once('close', finish);
    options.signal?.addEventListener('abort', finish, { once: true });
  });
}
