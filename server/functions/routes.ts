import path from 'node:path';
import { Hono } from 'hono';
import { limitRequestBody } from '../http/body-limit.ts';
import type { StackContext } from '../context.ts';
import { checkFunctionJwt } from './jwt-gate.ts';
import { defaultFunctionsDir, discoverFunctions, FUNCTION_NAME, type FunctionHandler } from './registry.ts';
import { provideEdgeRuntimeGlobals } from './runtime-globals.ts';

export interface FunctionsOptions {
  /** Folder holding <name>/handler.ts; supabase/functions by default. */
  dir?: string;
  /** supabase/config.toml, read for `[functions.<name>] verify_jwt = false`. */
  configToml?: string;
  /** Largest request body a function receives. */
  maxBodyBytes?: number;
  /** Wall-clock limit of one invocation (the hosted runtime's is 150 s on the free plan). */
  timeoutMs?: number;
}

const DEFAULTS = { maxBodyBytes: 10 * 1024 * 1024, timeoutMs: 150_000 };

/**
 * /functions/v1/<name>[/...]: runs supabase/functions/<name>/handler.ts in process, as Supabase's
 * edge gateway would: JWT check, the function's own status and headers, 500 when it throws.
 */
export function functionsRoutes(ctx: StackContext, options: FunctionsOptions = {}): Hono {
  const dir = options.dir ?? defaultFunctionsDir();
  const functions = discoverFunctions(dir, options.configToml ?? path.join(dir, '..', 'config.toml'));
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  provideEdgeRuntimeGlobals();
  // Handlers read these like on the hosted runtime, where Supabase injects them.
  process.env.SUPABASE_URL = ctx.config.publicUrl;
  process.env.SUPABASE_ANON_KEY = ctx.keys.anonKey;
  process.env.SUPABASE_SERVICE_ROLE_KEY = ctx.keys.serviceRoleKey;
  // The hosted runtime gets it as a function secret (supabase secrets set VIGIL_CREDENTIALS_KEY=…).
  process.env.VIGIL_CREDENTIALS_KEY = ctx.credentialsKey;

  const app = new Hono();
  app.use(
    '*',
    limitRequestBody({
      maxSize: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
      onError: (c) => c.json({ error: 'Request body too large' }, 413),
    }),
  );
  app.all('*', async (c) => {
    const [, name = '', ...rest] = c.req.path.replace(/^\/functions\/v1/, '').split('/');
    const fn = FUNCTION_NAME.test(name) ? functions.get(name) : undefined;
    if (!fn) {
      return c.json({ error: 'Function not found' }, 404);
    }
    // verify_jwt: only callers holding the project's key or a JWT it signed reach the function.
    if (fn.verifyJwt && c.req.method !== 'OPTIONS') {
      const denied = await checkFunctionJwt(ctx.keys, c.req.raw.headers);
      if (denied) {
        return c.json({ code: 401, message: denied }, 401);
      }
    }
    const url = new URL(c.req.url);
    const forwarded = forwardRequest(c.req.raw, `${url.origin}/${[name, ...rest].join('/')}${url.search}`);
    return invoke(fn.name, await fn.load(), forwarded, timeoutMs);
  });
  return app;
}

/** The caller's request as the function sees it on the hosted runtime: the path starts at /<name>. */
function forwardRequest(raw: Request, url: string): { request: Request; abort: AbortController } {
  const abort = new AbortController();
  const hasBody = raw.method !== 'GET' && raw.method !== 'HEAD' && raw.body !== null;
  const init: RequestInit & { duplex?: 'half' } = {
    method: raw.method,
    headers: raw.headers,
    body: hasBody ? raw.body : null,
    duplex: 'half',
    signal: abort.signal,
  };
  return { request: new Request(url, init), abort };
}

async function invoke(
  name: string,
  handler: FunctionHandler,
  { request, abort }: { request: Request; abort: AbortController },
  timeoutMs: number,
): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const result = await Promise.race([Promise.resolve(handler(request)), timedOut]);
    if (result === 'timeout') {
      // Tell the handler to stop its own work (fetches given request.signal end too).
      abort.abort(new Error('Function timed out'));
      return Response.json({ error: `Function ${name} timed out after ${timeoutMs} ms` }, { status: 504 });
    }
    if (!(result instanceof Response)) {
      throw new Error('the handler did not return a Response');
    }
    // A copy with mutable headers, so the gateway's CORS headers can be added.
    return new Response(result.body, result);
  } catch (e) {
    // A fault inside the function is the function's 500, not a relay error: no x-relay-error header.
    console.error(`edge function ${name} failed:`, e);
    return Response.json({ error: `Function ${name} failed` }, { status: 500 });
  } finally {
    clearTimeout(timer);
  }
}
