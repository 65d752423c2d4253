import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { functionsRoutes } from '../../../server/functions/routes.ts';
import { corsMiddleware } from '../../../server/http/cors.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';

// The host under test runs fixture functions (tests/fixtures/stack/functions) with the real stack's keys;
// application-logger and unknown names go through the real stack over HTTP.
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/stack/functions');

let stack: RunningStack;
let host: Hono;
let anon: Record<string, string>;
beforeAll(async () => {
  stack = await startTestStack();
  host = new Hono();
  host.use('/functions/v1/*', corsMiddleware);
  host.route(
    '/functions/v1',
    functionsRoutes(stack.ctx, {
      dir: FIXTURES,
      configToml: path.join(FIXTURES, 'config.toml'),
      maxBodyBytes: 1024,
      timeoutMs: 300,
    }),
  );
  anon = { apikey: stack.status.anon_key, authorization: `Bearer ${stack.status.anon_key}` };
});
afterAll(() => stack.close());

const call = (name: string, init: RequestInit = {}) =>
  host.request(`http://127.0.0.1/functions/v1/${name}`, init);

describe('edge functions host', () => {
  it('answers 404 JSON for unknown names, bad names and shared folders', async () => {
    const res = await fetch(`${stack.url}/functions/v1/no-such-function`, { method: 'POST', headers: anon });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Function not found' });
    for (const name of ['_shared', 'Echo', '..%2Fecho', 'echo%00']) {
      expect((await call(name, { method: 'POST', headers: anon })).status).toBe(404);
    }
  });

  it('passes the request through and returns the function status, headers and body', async () => {
    const res = await call('echo/sub/path?x=1', {
      method: 'POST',
      headers: { ...anon, 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-echo')).toBe('yes');
    expect(await res.json()).toEqual({
      method: 'POST',
      path: '/echo/sub/path',
      search: '?x=1',
      body: 'hi',
      env: stack.url,
    });
  });

  it('verifies the JWT at the gateway unless the function opts out', async () => {
    const missing = await call('echo', { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { message: string }).message).toBe('Missing authorization header');
    const forged = await call('echo', { method: 'POST', headers: { apikey: 'eyJhbGciOiJIUzI1NiJ9.e30.x' } });
    expect(forged.status).toBe(401);
    const badBearer = await call('echo', {
      method: 'POST',
      headers: { apikey: stack.status.anon_key, authorization: 'Bearer not.a.jwt' },
    });
    expect(badBearer.status).toBe(401);
    const expired = await stack.ctx.keys.sign({ role: 'authenticated', sub: crypto.randomUUID() }, -10);
    expect(
      (
        await call('echo', {
          method: 'POST',
          headers: { apikey: stack.status.anon_key, authorization: `Bearer ${expired}` },
        })
      ).status,
    ).toBe(401);
    // Only a bearer (curl as in Supabase's docs) is enough when it is a valid key.
    expect(
      (await call('echo', { method: 'POST', headers: { authorization: `Bearer ${stack.status.anon_key}` } }))
        .status,
    ).toBe(201);
    const hook = await call('open-hook', { method: 'POST', body: '{}' });
    expect(hook.status).toBe(200);
    expect(await hook.text()).toBe('hooked');
  });

  it('turns a throwing handler into a 500 without the relay-error header or internals', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await call('throws', { method: 'POST', headers: anon });
    quiet.mockRestore();
    expect(res.status).toBe(500);
    expect(res.headers.get('x-relay-error')).toBeNull();
    const body = (await res.json()) as { error: string };
    expect(body.error).toBe('Function throws failed');
    expect(JSON.stringify(body)).not.toContain('secret internal detail');
  });

  it('refuses bodies over the limit, declared or streamed', async () => {
    const big = 'x'.repeat(2048);
    const declared = await call('echo', { method: 'POST', headers: anon, body: big });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = await call('echo', { method: 'POST', headers: anon, body: stream, duplex: 'half' });
    expect(streamed.status).toBe(413);
  });

  it('stops a function at the time limit with 504', async () => {
    const res = await call('slow', { method: 'POST', headers: anon });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: string }).error).toMatch(/timed out/);
  });

  it('answers CORS preflights without credentials and adds CORS headers to answers', async () => {
    const pre = await fetch(`${stack.url}/functions/v1/application-logger`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, content-type, x-client-info',
      },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/apikey/);
    const res = await call('echo', { method: 'POST', headers: { ...anon, origin: 'http://localhost:5173' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('is what supabase.functions.invoke reaches: a gateway 401 is an HttpError, not a relay error', async () => {
    const supabase = client(stack);
    const result = (await supabase.functions.invoke('application-logger', {
      headers: { apikey: 'nope', Authorization: 'Bearer nope' },
      body: {},
    })) as { error: Error | null };
    expect(result.error?.name).toBe('FunctionsHttpError');
  });
});
