import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import type { TargetLogin } from '../../../shared/target-login.ts';
import { HttpClient } from '../core/http-client.ts';
import type { HttpResponse } from '../core/http-client.ts';
import { TargetPolicy } from '../target-policy.ts';
import { parseHtml } from './html.ts';
import type { Endpoint } from './crawl.ts';
import {
  jsonLogins,
  jsonResets,
  loginForms,
  ownLoginForms,
  resetForms,
  throttleSign,
} from './login-rate-limit.ts';

const page = new URL('http://shop.test/account/');
const forms = (html: string) => parseHtml(html, page).forms;
const answer = (status: number, headers: Record<string, string> = {}, body = ''): HttpResponse => ({
  url: page.href,
  status,
  headers,
  body,
  redirects: [],
});

describe('login forms', () => {
  it('takes POST forms with one password field and a field for the name, once per action', () => {
    const found = loginForms(
      forms(`
      <form method="post" action="/login"><input name="email"><input type="password" name="pw">
        <input type="hidden" name="csrf" value="k3y"></form>
      <form method="POST" action="/login"><input name="email"><input type="password" name="pw"></form>
      <form method="post" action="/signup"><input name="email"><input type="password" name="pw">
        <input type="password" name="pw2"></form>
      <form method="get" action="/search"><input name="q"><input type="password" name="pin"></form>
      <form method="post" action="/unlock"><input type="password" name="pin"><input type="hidden" name="t" value="1"></form>
      <form method="post" action="/register"><input name="email"><input type="password" name="pw"></form>
      <form method="post" action="/signup/login-details"><input name="email"><input type="password" name="pw"></form>
      <form method="post" action="/profile"><input name="email"><input type="password" name="pw"></form>`),
    );
    expect(found.map((f) => f.action.pathname)).toEqual(['/login']);
    expect(found[0]!.hidden).toEqual({ csrf: 'k3y' });
    expect(found[0]!.passwords).toEqual(['pw']);
  });
});

describe('password-reset forms', () => {
  it('takes POST forms naming a reset with one e-mail or user name field and no password, once per action', () => {
    const found = resetForms(
      forms(`
      <form method="post" action="/forgot-password"><input type="email" name="email">
        <input type="hidden" name="csrf" value="k3y"></form>
      <form method="post" action="/forgot-password"><input type="email" name="email"></form>
      <form method="post" action="/users/password"><input name="user[login]">
        <input type="hidden" name="reset_step" value="request"><input type="submit" name="commit"></form>
      <form method="post" action="/account/recover"><input name="username"></form>`),
    );
    expect(found.map((f) => f.action.pathname)).toEqual([
      '/forgot-password',
      '/users/password',
      '/account/recover',
    ]);
    expect(found[0]!.hidden).toEqual({ csrf: 'k3y' });
  });

  it('never takes a login, a sign-up, a change of password or a form without a reset', () => {
    const found = resetForms(
      forms(`
      <form method="post" action="/login"><input name="email"><input type="password" name="pw">
        <a href="/forgot">Forgot?</a></form>
      <form method="post" action="/login?reset=1"><input name="email"><input type="password" name="pw"></form>
      <form method="post" action="/signup"><input name="email"><input type="hidden" name="reset" value="0"></form>
      <form method="post" action="/register/recover"><input name="email"></form>
      <form method="post" action="/password/reset"><input type="password" name="password">
        <input type="password" name="password2"><input type="hidden" name="token" value="t"></form>
      <form method="post" action="/account/change-password"><input name="email"><input type="password" name="old">
        <input type="password" name="new"></form>
      <form method="post" action="/change-reset-email"><input name="email"></form>
      <form method="post" action="/newsletter"><input name="email"></form>
      <form method="get" action="/forgot"><input name="email"></form>
      <form method="post" action="/reset-request"><input name="email"><input name="username"></form>
      <form method="post" action="/recover"><input name="code"></form>
      <form method="post" action="/forgot"><input name="email"><input name="phone"><input name="note"></form>`),
    );
    expect(found).toEqual([]);
  });
});

const posted = (path: string, json: Record<string, unknown>, method: 'GET' | 'POST' = 'POST'): Endpoint => ({
  url: new URL(path, page),
  method,
  params: Object.keys(json),
  json,
});
const paths = (endpoints: Endpoint[]) => endpoints.map((e) => e.url.pathname);

describe('JSON logins and resets of single-page apps', () => {
  it('takes the JSON posts the app made to a login, with one password field and an account field, once per path', () => {
    const found = jsonLogins([
      posted('/rest/user/login', { email: 'vigil.scan@example.com', password: 'Vigil-scan-7x' }),
      posted('/rest/user/login', { email: 'a@b.c', password: 'x' }),
      posted('/api/auth/signin', { username: 'vigil', passwd: 'x', remember: true }),
      posted('/api/session', { user: 'vigil', pw: 'x' }),
    ]);
    expect(paths(found)).toEqual(['/rest/user/login', '/api/auth/signin', '/api/session']);
  });

  it('never takes a sign-up, a password change, a form post, a GET or a login without an account field', () => {
    expect(
      jsonLogins([
        posted('/api/users/register', { email: 'a', password: 'x' }),
        posted('/api/auth/signup', { email: 'a', password: 'x' }),
        posted('/api/auth/change-password', { current: 'x', password: 'y' }),
        posted('/api/login', { email: 'a', password: 'x', passwordRepeat: 'x' }),
        posted('/api/login', { pin: '1234', password: 'x' }),
        posted('/api/login', { email: 'a', password: 'x' }, 'GET'),
        { url: new URL('/login', page), method: 'POST', params: ['email', 'password'] },
      ]),
    ).toEqual([]);
  });

  it('takes a JSON reset request with one account field and no password; never a reset that sets a password', () => {
    const found = jsonResets([
      posted('/api/forgot-password', { email: 'vigil.scan@example.com' }),
      posted('/api/password/reset-request', { username: 'vigil', csrf_token: 'k3y' }),
      posted('/api/account/recover', { email: 'a', locale: 'en' }),
      // Juice Shop's reset: a new password by a security answer, not a request for a link.
      posted('/rest/user/reset-password', { email: 'a', answer: 'b', new: 'c', repeat: 'c' }),
      posted('/api/reset', { email: 'a', newPassword: 'x' }),
      posted('/api/signup/recover', { email: 'a' }),
      posted('/api/newsletter', { email: 'a' }),
      posted('/api/forgot', { email: 'a', username: 'b' }),
    ]);
    expect(paths(found)).toEqual([
      '/api/forgot-password',
      '/api/password/reset-request',
      '/api/account/recover',
    ]);
  });
});

describe('signs of a limit', () => {
  it('reads statuses, headers and words', () => {
    expect(throttleSign(answer(429))).toBe('HTTP 429');
    expect(throttleSign(answer(401, { 'retry-after': '60' }))).toBe('retry-after: 60');
    expect(throttleSign(answer(401, { ratelimit: 'limit=5, remaining=4, reset=900' }))).toMatch(
      /^ratelimit:/,
    );
    expect(throttleSign(answer(200, {}, '<p>Too many failed attempts, try again later.</p>'))).toMatch(
      /too many failed/i,
    );
    expect(throttleSign(answer(200, {}, '<div class="g-recaptcha"></div>'))).toMatch(/recaptcha/i);
  });

  it('takes a plain refusal for none', () => {
    expect(throttleSign(answer(401, {}, '<p>Wrong e-mail or password.</p>'))).toBeNull();
    expect(throttleSign(answer(200, { 'content-type': 'text/html' }, 'Sign in'))).toBeNull();
  });
});

describe("the scan's own login form", () => {
  const signIn =
    '<form method="post" action="/session"><input name="user"><input type="password" name="pass"></form>' +
    '<form method="post" action="/newsletter"><input name="email"></form>';

  it('is read from its login page, without the session, when the crawl did not show it', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.cookie ?? 'no cookie'}`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(signIn);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new HttpClient({ policy: new TargetPolicy('local'), maxRequests: 10 });
    const login: TargetLogin = {
      kind: 'form',
      login_url: `${origin}/session/new`,
      username_field: 'user',
      password_field: 'pass',
      username: 'owner',
      password: 'secret',
      logged_in_marker: undefined,
    };
    try {
      const own = await ownLoginForms(client, login, forms('<form method="post" action="/search"></form>'));
      expect(own.map((f) => `${f.action.pathname} ${f.fields.join(',')}`)).toEqual(['/session user,pass']);
      expect(seen).toEqual(['/session/new no cookie']);
      // Already among the crawled forms, or no form login at all: nothing is fetched.
      expect(await ownLoginForms(client, login, own)).toEqual([]);
      expect(
        await ownLoginForms(client, { kind: 'cookie', cookie: 'sid=1', logged_in_marker: undefined }, []),
      ).toEqual([]);
      expect(await ownLoginForms(client, undefined, [])).toEqual([]);
      expect(seen).toHaveLength(1);
    } finally {
      client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
