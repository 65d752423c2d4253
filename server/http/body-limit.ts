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
  const counting = bodyLimit(options);
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (c.req.header('transfer-encoding') !== undefined || (declared === undefined && hasUndeclaredBody(c))) {
      return counting(c, next);
    }
    // Node's HTTP parser answers 400 to a Content-Length that is not a number before we see it.
    if (Number(declared ?? 0) > options.maxSize) {
      return options.onError(c);
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
