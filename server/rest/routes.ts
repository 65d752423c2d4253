import { Hono, type Context } from 'hono';
import type { StackContext } from '../context.ts';
import { limitRequestBody } from '../http/body-limit.ts';
import { isRoleFailure, type RequestRole, type RoleFailure } from '../http/request-role.ts';
import { RestError, toRestError } from './errors.ts';
import { callFunction } from './handlers/rpc.ts';
import { mutateTable } from './handlers/mutate.ts';
import { readTable } from './handlers/read.ts';
import type { RestRequest } from './handlers/request.ts';
import { parsePrefer } from './prefer.ts';
import { decodeMediaType, negotiate, toMime } from './media.ts';
import type { RestResponse } from './respond.ts';
import { cachedRoleResolver } from './role-cache.ts';
import { reloadRoleTimeouts } from '../db/role-timeouts.ts';
import { runAsRequest } from './run.ts';
import { schemaCacheFor } from './schema-cache.ts';

/** Request bodies above this are refused with 413 before they are read into memory. */
export const MAX_BODY_BYTES = 1024 * 1024;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

/** The gateway's and PostgREST's answers when the request's keys or token are not acceptable. */
function roleFailure(f: RoleFailure): Response {
  switch (f.kind) {
    case 'no_api_key':
      return json(401, {
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      });
    case 'invalid_api_key':
      return json(401, {
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      });
    case 'expired_jwt':
      return errorJson(
        new RestError('PGRST303', 'JWT expired', null, null, {
          'www-authenticate': 'Bearer error="invalid_token", error_description="JWT expired"',
        }),
      );
    case 'malformed_authorization':
      return errorJson(
        new RestError(
          'PGRST301',
          'Invalid Authorization header',
          null,
          'Send the access token as `Authorization: Bearer <token>`, with one space and no other whitespace.',
          {
            'www-authenticate':
              'Bearer error="invalid_request", error_description="Invalid Authorization header"',
          },
        ),
      );
    case 'invalid_jwt':
      return errorJson(
        new RestError('PGRST301', f.message, null, null, {
          'www-authenticate': `Bearer error="invalid_token", error_description="${f.message.replace(/"/g, "'")}"`,
        }),
      );
  }
}

const errorJson = (e: RestError) => json(e.status, e.body(), e.headers);

/**
 * The schema of a request (PostgREST's getSchema): Accept-Profile for GET/HEAD, Content-Profile for the
 * others, one of the exposed schemas (406 PGRST106 otherwise); the first exposed schema by default.
 */
function requestSchema(c: Context, schemas: readonly string[]): { schema: string; negotiated: boolean } {
  const profile =
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? c.req.header('accept-profile')
      : c.req.header('content-profile');
  if (profile === undefined) {
    return { schema: schemas[0]!, negotiated: schemas.length > 1 };
  }
  if (!schemas.includes(profile)) {
    throw new RestError(
      'PGRST106',
      `Invalid schema: ${profile}`,
      null,
      `Only the following schemas are exposed: ${schemas.join(', ')}`,
    );
  }
  return { schema: profile, negotiated: true };
}

// Fetch Headers iterate with lower-cased names already.
const lowerCaseHeaders = (c: Context): Record<string, string> => Object.fromEntries(c.req.raw.headers);

type Handler = (req: RestRequest, name: string) => Promise<RestResponse>;

/** PostgREST-compatible /rest/v1, authorised by Postgres grants and row-level security. */
export function restRoutes(ctx: StackContext): Hono {
  const cache = schemaCacheFor(ctx.db);
  const resolveRole = cachedRoleResolver(ctx.keys);
  // PostgREST's reload signals: NOTIFY pgrst, 'reload schema' (or an empty payload), 'reload config' (the
  // roles' settings, such as their statement_timeout).
  ctx.db
    .listen('pgrst', (payload) => {
      if (payload === '' || payload === 'reload schema') {
        cache.reload().catch((e: unknown) => console.error('rest: schema reload failed', e));
      }
      if (payload === '' || payload === 'reload config' || payload === 'reload schema') {
        reloadRoleTimeouts(ctx.db).catch((e: unknown) =>
          console.error('rest: role settings reload failed', e),
        );
      }
    })
    .catch((e: unknown) => console.error('rest: cannot LISTEN pgrst', e));

  const handle =
    (handler: Handler) =>
    async (c: Context): Promise<Response> => {
      const url = new URL(c.req.url);
      const who = await resolveRole(
        c.req.header('apikey') ?? url.searchParams.get('apikey'),
        c.req.header('authorization'),
      );
      if (isRoleFailure(who)) {
        return roleFailure(who);
      }
      try {
        const res = await serve(c, url, who, handler);
        return new Response(res.body, { status: res.status, headers: res.headers });
      } catch (e) {
        return errorJson(toRestError(e, who.role === 'anon'));
      }
    };

  const serve = async (c: Context, url: URL, who: RequestRole, handler: Handler): Promise<RestResponse> => {
    const api = await cache.get();
    const { schema, negotiated } = requestSchema(c, api.config.schemas);
    const method = c.req.method;
    const prefs = parsePrefer(c.req.header('prefer'));
    const { media, stripNulls, plan } = negotiate(c.req.header('accept'), api.config.planEnabled);
    const bodyBytes =
      method === 'GET' || method === 'HEAD' || method === 'DELETE'
        ? null
        : new Uint8Array(await c.req.arrayBuffer());
    const req: RestRequest = {
      method,
      params: url.searchParams,
      rawQuery: url.search,
      rangeHeader: c.req.header('range'),
      prefs,
      media,
      stripNulls,
      plan,
      bodyText: bodyBytes === null ? null : new TextDecoder().decode(bodyBytes),
      bodyBytes,
      contentType: toMime(decodeMediaType(c.req.header('content-type') ?? 'application/json')),
      cache: api.schemas.get(schema)!,
      config: api.config,
      run: (readOnly, fn, oneStatement = false) =>
        runAsRequest(
          ctx.db,
          who,
          {
            readOnly,
            oneStatement,
            rollback: prefs.tx === 'rollback',
            method,
            path: url.pathname,
            schema,
            headers: lowerCaseHeaders(c),
          },
          fn,
        ),
    };
    // Hono has already percent-decoded the path parameter.
    const res = await handler(req, c.req.param('name') ?? '');
    // PostgREST names the schema it answered from when the client chose it or could have.
    return negotiated ? { ...res, headers: { ...res.headers, 'content-profile': schema } } : res;
  };

  const app = new Hono();
  const limitBody = limitRequestBody({
    maxSize: MAX_BODY_BYTES,
    // The unread rest of the body is still on the socket: close the connection rather than reuse it.
    onError: () =>
      errorJson(
        new RestError(
          'PGRST413',
          'Payload Too Large',
          null,
          `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`,
          {
            connection: 'close',
          },
        ),
      ),
  });
  app.use('*', limitBody);
  const notAllowed = (c: Context) =>
    errorJson(new RestError('PGRST117', `Unsupported HTTP method: ${c.req.method}`));
  app.on(['GET', 'HEAD', 'POST'], '/rpc/:name', handle(callFunction));
  app.all('/rpc/:name', notAllowed);
  app.on(['GET', 'HEAD'], '/:name', handle(readTable));
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/:name', handle(mutateTable));
  app.all('/:name', notAllowed);
  return app;
}
