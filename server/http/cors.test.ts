import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { corsMiddleware } from './cors.ts';

const app = new Hono();
app.use('/api/*', corsMiddleware);
app.get('/api/plain', (c) => c.json({ ok: true }, 200, { vary: 'Accept' }));
// Response.redirect's headers are immutable: CORS must still be added (to a copy).
app.get('/api/redirect', () => Response.redirect('http://127.0.0.1/next', 303));
app.get('/api/fails', () => {
  throw new Error('boom');
});

const EXPOSE =
  'Content-Range,X-Supabase-Api-Version,X-Total-Count,Link,Preference-Applied,Content-Location,Location';

describe('corsMiddleware', () => {
  it('answers a preflight with the allowed methods and headers, echoing the origin', async () => {
    const res = await app.request('/api/plain', {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-headers': 'apikey' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toContain('apikey,content-type');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
    expect(res.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers');
    expect(res.headers.get('content-type')).toBeNull();
  });

  it("adds the headers to the handler's response, keeping its own Vary", async () => {
    const res = await app.request('/api/plain');
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSE);
    expect(res.headers.get('vary')).toBe('Accept, Origin');
  });

  it('adds them to responses with immutable headers and to error responses', async () => {
    const redirect = await app.request('/api/redirect', { headers: { origin: 'http://app.test' } });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('http://127.0.0.1/next');
    expect(redirect.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(redirect.headers.get('vary')).toBe('Origin');
    const failed = await app.request('/api/fails');
    expect(failed.status).toBe(500);
    expect(failed.headers.get('access-control-allow-origin')).toBe('*');
  });
});
