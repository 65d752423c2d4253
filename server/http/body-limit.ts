import type { Context, Env, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export interface BodyLimitOptions<E extends Env> {
  maxSize: number;
  onError: (c: Context<E>) => Response | Promise<Response>;
}

/**
 * hono/bodyLimit, without its cost for a body of declared length. bodyLimit reads `raw.body` first,
 * which makes @hono/node-server build a full fetch Request and stream the body through it (~0.15 ms per
 * POST over HTTP); a handler's text() or json() otherwise takes the adapter's fast path. So a declared
 * Content-Length is compared as a number (Node's HTTP parser holds the body to it), and only a streamed
 * (chunked) body, or one the request does not declare, is counted as it is read.
 */
export function limitRequestBody<E extends Env = Env>(options: BodyLimitOptions<E>): MiddlewareHandler<E> {
  const refuse = async (c: Context<E>) => {
    await drainRequest(c);
    return options.onError(c);
  };
  const counting = bodyLimit({ ...options, onError: refuse });
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (c.req.header('transfer-encoding') !== undefined || (declared === undefined && hasUndeclaredBody(c))) {
      return counting(c, next);
    }
    // Node's HTTP parser answers 400 to a Content-Length that is not a number before we see it.
    if (Number(declared ?? 0) > options.maxSize) {
      return refuse(c);
    }
    await next();
  };
}

/**
 * Over HTTP a request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3). A
 * Request handed to the app in process (no Node `incoming` message) may carry one without either header.
 */
function hasUndeclaredBody(c: Context): boolean {
  const fromNode = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
  return !fromNode && c.req.raw.body !== null;
}

/** How much of a refused body is read and dropped, so that the client gets its answer. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 10_000;

/**
 * Reads and drops the rest of a refused request body before the answer goes out. A server that answers
 * and closes while the client is still sending makes the client's next write fail (a broken pipe, a
 * reset) before it reads the 413; draining lets it finish sending and read the answer. Bounded: past
 * DRAIN_BYTES or DRAIN_MS the answer goes out anyway and the connection is closed.
 */
async function drainRequest(c: Context): Promise<void> {
  const incoming = (c.env as { incoming?: NodeJS.ReadableStream & { complete?: boolean } } | undefined)
    ?.incoming;
  if (!incoming || incoming.complete) {
    return;
  }
  await new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.removeListener('data', onData);
      incoming.removeListener('end', done);
      incoming.removeListener('close', done);
      incoming.removeListener('error', done);
      resolve();
    };
    const onData = (chunk: Buffer | string) => {
      seen += chunk.length;
      if (seen > DRAIN_BYTES) {
        done();
      }
    };
    const timer = setTimeout(done, DRAIN_MS);
    // A streamed body was being read through a web stream: in 'readable' mode, which would keep the 'data'
    // listener below from ever firing, or (Node 20's Readable.toWeb) with a 'data' listener that pauses the
    // message again after every chunk its reader has not taken, so the drain stalled until DRAIN_MS. The
    // request is refused: its reader is no longer wanted.
    incoming.removeAllListeners('readable');
    incoming.removeAllListeners('data');
    incoming.on('data', onData);
    incoming.once('end', done);
    incoming.once('close', done);
    incoming.once('error', done);
    incoming.resume();
  });
}
