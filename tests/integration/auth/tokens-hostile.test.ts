// docs/product.md §17.8: tokens checked as GoTrue and PostgREST check them. Tokens signed with the stack's own key
// but for another issuer or audience, and Authorization headers that are not exactly `Bearer <token>`,
// are refused by REST, auth, functions, storage and realtime; the same user's well-formed token passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';

let stack: RunningStack;
let user: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  user = await signedInUser(stack, `tokens-hostile-${Date.now()}@example.com`);
});
afterAll(() => stack.close());

/** A user token signed with the stack's real key, with these claims changed. */
async function forged(changes: Record<string, unknown>): Promise<string> {
  const claims = JSON.parse(
    Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString('utf8'),
  ) as Record<string, unknown>;
  const { exp: _exp, iat: _iat, ...rest } = claims;
  // A claim set to undefined is left out of the token (even `iss`, which the signer otherwise fills in).
  return stack.ctx.keys.sign({ ...rest, ...changes } as { role: string }, 600);
}

type Service = 'rest' | 'auth' | 'functions' | 'storage';

/** One authenticated request to a service with a raw Authorization header; its status and body. */
async function call(service: Service, authorization: string | null) {
  const headers: Record<string, string> = { apikey: stack.status.anon_key };
  if (authorization !== null) {
    headers.authorization = authorization;
  }
  const request: Record<Service, [string, RequestInit]> = {
    rest: ['/rest/v1/profiles?select=id', {}],
    auth: ['/auth/v1/user', {}],
    functions: [
      '/functions/v1/application-logger',
      {
        method: 'POST',
        body: JSON.stringify({ level: 'info', message: 'token test' }),
        headers: { 'content-type': 'application/json' },
      },
    ],
    storage: ['/storage/v1/bucket', {}],
  };
  const [path, init] = request[service];
  const res = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
  });
  return { status: res.status, body: await res.text() };
}

const SERVICES: Service[] = ['rest', 'auth', 'functions', 'storage'];

/** What each service answers a refused token with (GoTrue: 403 bad_jwt, like an unknown key). */
const REFUSED: Record<Service, number> = { rest: 401, auth: 403, functions: 401, storage: 401 };

describe('tokens of another issuer or audience', () => {
  it('accepts the user’s own token everywhere (the control)', async () => {
    for (const service of SERVICES) {
      const res = await call(service, `Bearer ${user.accessToken}`);
      expect({ service, status: res.status }).toEqual({ service, status: 200 });
    }
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example/auth/v1' }],
    ['no issuer', { iss: undefined }],
    ['another audience', { aud: 'other-project' }],
    ['an audience list with another one', { aud: ['authenticated', 'other-project'] }],
    ['no audience', { aud: undefined }],
  ])('refuses a token with %s in every service', async (_what, changes) => {
    const token = await forged(changes);
    for (const service of SERVICES) {
      const res = await call(service, `Bearer ${token}`);
      expect({ service, status: res.status }).toEqual({ service, status: REFUSED[service] });
    }
    const rest = JSON.parse((await call('rest', `Bearer ${token}`)).body) as { code: string };
    expect(rest.code).toBe('PGRST301');
    const auth = JSON.parse((await call('auth', `Bearer ${token}`)).body) as { error_code: string };
    expect(auth.error_code).toBe('bad_jwt');
  });

  it('refuses such a token on a realtime join, and admits the right one', async () => {
    const ws = new WebSocket(
      `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.status.anon_key}&vsn=1.0.0`,
    );
    const replies = new Map<string, { status: string; response: { reason?: string } }>();
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString('utf8')) as {
        ref: string;
        event: string;
        payload: { status: string; response: { reason?: string } };
      };
      if (msg.event === 'phx_reply') {
        replies.set(msg.ref, msg.payload);
      }
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const join = async (ref: string, token: string) => {
      ws.send(
        JSON.stringify({
          topic: `realtime:room-${ref}`,
          event: 'phx_join',
          ref,
          payload: { config: {}, access_token: token },
        }),
      );
      const until = Date.now() + 3000;
      while (!replies.has(ref)) {
        if (Date.now() > until) {
          throw new Error(`no reply to join ${ref}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      return replies.get(ref)!;
    };
    expect((await join('1', user.accessToken)).status).toBe('ok');
    for (const [ref, changes] of [
      ['2', { iss: 'https://evil.example/auth/v1' }],
      ['3', { aud: 'other-project' }],
    ] as const) {
      const reply = await join(ref, await forged(changes));
      expect(reply.status).toBe('error');
      expect(reply.response.reason).toMatch(/InvalidJWTToken/);
    }
    const padded = await join('4', ` ${user.accessToken} `);
    expect(padded.status).toBe('error');
    ws.close();
  });
});

// HTTP itself strips whitespace at either end of a header value (fetch does before sending, Node's server on
// receipt), so `Bearer <token> ` is the well-formed header on the wire; what survives must be refused.
describe('Authorization headers that are not exactly `Bearer <token>`', () => {
  it.each([
    ['whitespace around the token', (t: string) => `Bearer  ${t} `],
    ['two spaces', (t: string) => `Bearer  ${t}`],
    ['a tab', (t: string) => `Bearer\t${t}`],
    ['no token', () => 'Bearer'],
    ['another scheme', (t: string) => `Token ${t}`],
  ])('refuses %s in every service', async (_what, header) => {
    const value = header(user.accessToken);
    for (const service of SERVICES) {
      const res = await call(service, value);
      expect({ service, status: res.status }).toEqual({
        service,
        status: service === 'auth' ? 401 : REFUSED[service],
      });
    }
    const auth = JSON.parse((await call('auth', value)).body) as { error_code: string };
    expect(auth.error_code).toBe('no_authorization');
  });
});
