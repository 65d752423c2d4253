import type { MiddlewareHandler } from 'hono';

// What supabase-js sends and reads from a browser (docs/reference/common.md §2). The headers are the ones
// hono/cors wrote with these options; this middleware only writes them after the handler instead of
// before it, so the handler's response is not copied (that copy turned every response body into a
// stream, ~0.1 ms per request through @hono/node-server).
const ALLOW_METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS';
const ALLOW_HEADERS = [
  'authorization',
  'x-client-info',
  'apikey',
  'content-type',
  'x-retry-count',
  'traceparent',
  'tracestate',
  'baggage',
  'accept-profile',
  'content-profile',
  'prefer',
  'range',
  'x-supabase-api-version',
  'x-region',
  'accept',
  'x-upsert',
  'cache-control',
].join(',');
const EXPOSE_HEADERS = [
  'Content-Range',
  'X-Supabase-Api-Version',
  'X-Total-Count',
  'Link',
  'Preference-Applied',
  'Content-Location',
  'Location',
].join(',');
const MAX_AGE = '86400';

function addCorsHeaders(headers: Headers, origin: string): void {
  headers.set('Access-Control-Allow-Origin', origin);
  headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  headers.append('Vary', 'Origin');
}

/** CORS for the Supabase API paths: any origin (the API is authorised by keys, not cookies). */
export const corsMiddleware: MiddlewareHandler = async (c, next) => {
  const origin = c.req.header('origin') || '*';
  if (c.req.method === 'OPTIONS') {
    const headers = new Headers();
    addCorsHeaders(headers, origin);
    headers.set('Access-Control-Max-Age', MAX_AGE);
    headers.set('Access-Control-Allow-Methods', ALLOW_METHODS);
    headers.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
    headers.append('Vary', 'Access-Control-Request-Headers');
    return new Response(null, { status: 204, statusText: 'No Content', headers });
  }
  await next();
  try {
    addCorsHeaders(c.res.headers, origin);
  } catch (e) {
    // Immutable headers (Response.redirect, a fetched response): add them to a copy instead.
    if (!(e instanceof TypeError)) {
      throw e;
    }
    c.res = new Response(c.res.body, c.res);
    addCorsHeaders(c.res.headers, origin);
  }
};
