import { describe, expect, it } from 'vitest';

import type { TargetLogin } from '../../../../shared/target-login.ts';
import type { HttpResponse } from '../../core/http-client.ts';
import type { LoginDriver, LoginOutcome } from './session.ts';
import { ScanSession } from './session.ts';

const origin = 'https://shop.example';
const form: TargetLogin = {
  kind: 'form',
  login_url: `${origin}/login`,
  username_field: 'u',
  password_field: 'p',
  username: 'alice',
  password: 'pw',
  logged_in_marker: undefined,
};
const response = (
  status: number,
  headers: HttpResponse['headers'] = {},
  url = `${origin}/x`,
): HttpResponse => ({
  url,
  status,
  headers,
  body: '',
  redirects: [],
});

/** A driver whose session is alive or not as the test says; each login sets a fresh cookie. */
function fakeDriver(renewable = true) {
  const state = { alive: true, logins: 0, checks: 0, fail: false };
  const driver: LoginDriver = {
    renewable,
    logIn: (session): Promise<LoginOutcome> => {
      state.logins += 1;
      if (state.fail) {
        return Promise.resolve({ ok: false, reason: 'wrong password' });
      }
      session.adoptCookieHeader(`sid=${state.logins}`);
      state.alive = true;
      return Promise.resolve({ ok: true, detail: 'ok' });
    },
    alive: () => {
      state.checks += 1;
      return Promise.resolve(state.alive);
    },
  };
  return { state, driver };
}

describe('ScanSession', () => {
  it('sends its cookies and headers to the target only', async () => {
    const { driver } = fakeDriver();
    const session = new ScanSession(form, origin, driver);
    await session.start();
    expect(session.headers(new URL(`${origin}/a`))).toEqual({ cookie: 'sid=1' });
    expect(session.headers(new URL('https://evil.example/a'))).toEqual({});
    const header = new ScanSession(
      { kind: 'header', header_name: 'Authorization', header_value: 'Bearer t', logged_in_marker: undefined },
      origin,
      fakeDriver(false).driver,
    );
    expect(header.headers(new URL(`${origin}/a`))).toEqual({ authorization: 'Bearer t' });
  });

  it('keeps Set-Cookie answers, and refuses logout links whatever asks', async () => {
    const session = new ScanSession(form, origin, fakeDriver().driver);
    await session.start();
    await session.renewed(new URL(`${origin}/a`), response(200, { 'set-cookie': ['cart=7; Path=/'] }));
    expect(session.headers(new URL(`${origin}/b`)).cookie).toBe('sid=1; cart=7');
    const withCookie = session.headers(new URL(`${origin}/b`));
    expect(session.refuses(new URL(`${origin}/logout`), 'GET', withCookie)).toMatch(
      /never ends its own session/,
    );
    expect(session.refuses(new URL(`${origin}/logout`), 'GET', {})).toMatch(/never ends its own session/);
    expect(session.refuses(new URL(`${origin}/account`), 'GET', withCookie)).toBeNull();
    expect(session.refuses(new URL(`${origin}/account/delete`), 'POST', withCookie)).toMatch(/never deletes/);
    expect(session.refuses(new URL(`${origin}/api/cart/7`), 'DELETE', withCookie)).toMatch(/never deletes/);
    // The browser's own cookies and tokens count as much as the session's.
    expect(session.refuses(new URL(`${origin}/api/cart/7`), 'DELETE', { Cookie: 'x=1' })).toMatch(
      /never deletes/,
    );
    expect(session.refuses(new URL(`${origin}/api/cart/7`), 'DELETE', { authorization: 'Bearer b' })).toMatch(
      /never deletes/,
    );
  });

  it('lets a request that carries no credential delete (a write probe removing its own file), never one with the login header', () => {
    const session = new ScanSession(
      { kind: 'header', header_name: 'X-Api-Key', header_value: 'k', logged_in_marker: undefined },
      origin,
      fakeDriver(false).driver,
    );
    const marker = new URL(`${origin}/webdav/vigil-write-probe-1a2b.txt`);
    expect(session.refuses(marker, 'DELETE', { 'user-agent': 'Vigil', accept: '*/*' })).toBeNull();
    expect(session.refuses(marker, 'DELETE', { 'x-api-key': 'k' })).toMatch(/never deletes/);
    // A token in a header of the app's own choosing counts as a credential too.
    expect(session.refuses(marker, 'DELETE', { 'x-access-token': 'eyJ…' })).toMatch(/never deletes/);
    expect(
      session.refuses(new URL(`${origin}/webdav/vigil-write-probe-1a2b-copy.txt`), 'DELETE', {
        accept: '*/*',
        destination: `${origin}/webdav/vigil-write-probe-1a2b-moved.txt`,
      }),
    ).toBeNull();
    expect(session.refuses(new URL(`${origin}/logout`), 'GET', {})).toMatch(/never ends its own session/);
  });

  it('logs in again when a 401 or a redirect to the login page shows the session is gone', async () => {
    const { state, driver } = fakeDriver();
    const session = new ScanSession(form, origin, driver);
    await session.start();
    state.alive = false;
    expect(await session.renewed(new URL(`${origin}/a`), response(401))).toBe(true);
    expect(state.logins).toBe(2);
    expect(session.headers(new URL(`${origin}/a`)).cookie).toBe('sid=2');
    await new Promise((r) => setTimeout(r, 10));
    state.alive = false;
    expect(await session.renewed(new URL(`${origin}/b`), response(302, { location: '/login?next=/b' }))).toBe(
      true,
    );
    expect(session.report()).toMatchObject({ status: 'logged-in', renewals: 2 });
    // A redirect elsewhere is not a lost session.
    expect(await session.renewed(new URL(`${origin}/c`), response(302, { location: '/home' }))).toBe(false);
  });

  it("takes a 401 for the endpoint's own answer while the session still works", async () => {
    const { state, driver } = fakeDriver();
    const session = new ScanSession(form, origin, driver);
    await session.start();
    expect(await session.renewed(new URL(`${origin}/admin`), response(401))).toBe(false);
    // Checked once, then trusted for a while: a 401 per request must not cost a check per request.
    expect(await session.renewed(new URL(`${origin}/admin`), response(401))).toBe(false);
    expect(state.checks).toBe(1);
    expect(state.logins).toBe(1);
  });

  it('renews once for concurrent losses, and gives up after three renewals', async () => {
    const { state, driver } = fakeDriver();
    const session = new ScanSession(form, origin, driver);
    await session.start();
    state.alive = false;
    const all = await Promise.all(
      [1, 2, 3].map((i) => session.renewed(new URL(`${origin}/${i}`), response(401))),
    );
    expect(all).toEqual([true, true, true]);
    expect(state.logins).toBe(2);
    for (let i = 0; i < 3; i += 1) {
      state.alive = false;
      await session.renew();
    }
    expect(session.report()).toMatchObject({ status: 'expired', renewals: 3 });
    expect(state.logins).toBe(4);
  });

  it('says so when the login fails, or a cookie login expires', async () => {
    const failing = fakeDriver();
    failing.state.fail = true;
    const session = new ScanSession(form, origin, failing.driver);
    expect(await session.start()).toBe(false);
    expect(session.report()).toEqual({
      kind: 'form',
      status: 'failed',
      detail: 'wrong password',
      renewals: 0,
    });
    const cookie = fakeDriver(false);
    const static_ = new ScanSession(
      { kind: 'cookie', cookie: 'sid=abc', logged_in_marker: 'Hi' },
      origin,
      cookie.driver,
    );
    await static_.start();
    cookie.state.alive = false;
    expect(await static_.renewed(new URL(`${origin}/a`), response(401))).toBe(false);
    expect(static_.report()).toMatchObject({
      status: 'expired',
      detail: expect.stringMatching(/save a fresh one/) as unknown,
    });
  });
});
