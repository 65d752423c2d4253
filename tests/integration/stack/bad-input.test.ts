// docs/product.md §17.6, with the requests an attacker sent: each gets a clear 4xx (never a 500, a reset or a hang).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { writeInPieces } from '../../helpers/stream-body.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';

let stack: RunningStack;
let user: TestUser;
beforeAll(async () => {
  stack = await startTestStack();
  user = await signedInUser(stack, `bad-input-${Date.now()}@example.com`);
});
afterAll(() => stack.close());

const json = (body: unknown) => ({
  method: 'POST',
  headers: { apikey: stack.status.anon_key, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A raw request that reports resets and broken pipes instead of hiding them. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: { chunks: number; size: number },
): Promise<{ status: number; text: string } | { failure: string }> {
  const url = new URL(stack.url);
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ failure: e.code ?? e.message }));
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    if (!body) {
      req.end();
      return;
    }
    writeInPieces(req, Buffer.alloc(body.size, 'x'), body.chunks);
  });
}

describe('bad input', () => {
  it('refuses a NUL character in every auth input with 400, the keyless e-mail link included', async () => {
    const answers = await Promise.all([
      fetch(`${stack.url}/auth/v1/verify?token=%00&type=signup`, { redirect: 'manual' }),
      fetch(
        `${stack.url}/auth/v1/token?grant_type=password`,
        json({ email: 'a\u0000@example.com', password: 'x' }),
      ),
      fetch(
        `${stack.url}/auth/v1/signup`,
        json({ email: 'nul@example.com', password: 'secret\u0000pass', data: { n: '\u0000' } }),
      ),
      fetch(`${stack.url}/auth/v1/recover`, json({ email: 'a@example.com\u0000' })),
      fetch(`${stack.url}/auth/v1/otp`, json({ email: 'a@example.com', data: { company: 'x\u0000' } })),
      fetch(`${stack.url}/auth/v1/verify`, json({ type: 'signup', token_hash: '\u0000' })),
      fetch(`${stack.url}/auth/v1/resend`, json({ type: 'signup', email: '\u0000@example.com' })),
    ]);
    for (const res of answers) {
      const body = (await res.json()) as { error_code: string; msg: string };
      expect({ status: res.status, code: body.error_code }).toEqual({
        status: 400,
        code: 'validation_failed',
      });
      expect(body.msg).toMatch(/NUL/);
    }
  });

  it('answers the customer RPCs’ refusals with 404 and 409, as PostgREST does for PT404 and PT409', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [fn, args] of [
      ['request_report', { p_configuration: missing }],
      ['resolve_security_event', { p_event: missing }],
      ['mark_recommendation_implemented', { p_recommendation: missing }],
    ] as const) {
      const res = await user.supabase.rpc(fn, args);
      expect({ fn, status: res.status, code: res.error?.code }).toEqual({ fn, status: 404, code: 'PT404' });
    }
  });

  it('answers every method on a function route, never resetting the connection', async () => {
    for (const method of ['DELETE', 'PUT', 'PATCH', 'GET']) {
      for (const path of [
        '/functions/v1/application-logger',
        '/functions/v1/nope',
        '/functions/v1/application-logger/x',
      ]) {
        const res = await raw(method, path, { apikey: stack.status.anon_key });
        expect('status' in res ? res.status : res.failure, `${method} ${path}`).toBeOneOf([404, 405]);
      }
    }
  });

  it('answers an oversized body with 413 and PostgREST’s error, even to a client still sending it', async () => {
    const headers = {
      apikey: stack.status.anon_key,
      authorization: `Bearer ${user.accessToken}`,
      'content-type': 'application/json',
    };
    // 8 MB in 64 kB pieces, declared; then the same streamed without a length (chunked).
    const declared = await raw(
      'POST',
      '/rest/v1/monitoring_metrics',
      { ...headers, 'content-length': String(128 * 65536) },
      {
        chunks: 128,
        size: 65536,
      },
    );
    const chunked = await raw('POST', '/rest/v1/monitoring_metrics', headers, { chunks: 128, size: 65536 });
    for (const res of [declared, chunked]) {
      expect(res).toMatchObject({ status: 413 });
      expect(JSON.parse((res as { text: string }).text)).toEqual({
        code: 'PGRST413',
        details: null,
        hint: 'Request bodies are limited to 1048576 bytes.',
        message: 'Payload Too Large',
      });
    }
  });

  it('lists users with no page argument (page 1, 50 per page, as GoTrue)', async () => {
    const { data, error } = await client(stack, 'service_role').auth.admin.listUsers();
    expect(error).toBeNull();
    expect(data.users.map((u) => u.id)).toContain(user.id);
  });
});
