import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import { parseHtml } from './html.ts';
import { loginForms, resetForms, throttleSign } from './login-rate-limit.ts';

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
