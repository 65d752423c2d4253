import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import { parseHtml } from './html.ts';
import { loginForms, throttleSign } from './login-rate-limit.ts';

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
