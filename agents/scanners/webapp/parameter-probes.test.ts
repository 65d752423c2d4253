import { describe, expect, it } from 'vitest';

import type { HttpClient, RequestInit } from '../core/http-client.ts';
import type { Endpoint } from './crawl.ts';
import { probedLoggedOut, send } from './parameter-probes.ts';

const endpoint = (path: string, params: string[], extra: Partial<Endpoint> = {}): Endpoint => ({
  url: new URL(path, 'http://shop.test'),
  method: 'POST',
  params,
  ...extra,
});

/** A client that records what each request was sent with, and answers nothing. */
function recordingClient(): { client: HttpClient; sent: RequestInit[] } {
  const sent: RequestInit[] = [];
  const client = {
    tryRequest: (_url: URL, init: RequestInit = {}) => {
      sent.push(init);
      return Promise.resolve(null);
    },
  } as unknown as HttpClient;
  return { client, sent };
}

describe('which parameter probes go without the scan session', () => {
  it('takes logins and sign-ups (a password or secret field) as places probed logged out', () => {
    expect(probedLoggedOut(endpoint('/login', ['email', 'password']))).toBe(true);
    expect(probedLoggedOut(endpoint('/rest/user/login', ['email', 'password'], { json: {} }))).toBe(true);
    expect(probedLoggedOut(endpoint('/session', ['user', 'pw']))).toBe(true);
    expect(probedLoggedOut(endpoint('/oauth/token', ['client_id', 'client_secret']))).toBe(true);
    expect(probedLoggedOut(endpoint('/register', ['email', 'passwd', 'passwordRepeat']))).toBe(true);
  });

  it('keeps the session on a password change and on every other place', () => {
    expect(probedLoggedOut(endpoint('/account/password', ['current_password', 'new_password']))).toBe(false);
    expect(probedLoggedOut(endpoint('/profile', ['oldPassword', 'newPassword', 'repeat']))).toBe(false);
    expect(probedLoggedOut(endpoint('/search', ['q', 'passport_no']))).toBe(false);
    expect(probedLoggedOut(endpoint('/api/orders', ['id']))).toBe(false);
  });

  it('sends every probe of a login anonymous, query, form and JSON alike, and the others as they were', async () => {
    const { client, sent } = recordingClient();
    await send(client, endpoint('/login', ['email', 'password']), 'email', "a'", { timeoutMs: 5000 });
    await send(client, endpoint('/login', ['email', 'password'], { method: 'GET' }), 'email', "a'");
    await send(
      client,
      endpoint('/api/login', ['email', 'password'], { json: { email: 'a' } }),
      'email',
      "a'",
    );
    await send(client, endpoint('/search', ['q'], { method: 'GET' }), 'q', "a'", { timeoutMs: 5000 });
    expect(sent.map((init) => init.anonymous ?? false)).toEqual([true, true, true, false]);
    expect(sent[0]!.timeoutMs).toBe(5000);
    expect(sent[3]!.timeoutMs).toBe(5000);
  });
});
