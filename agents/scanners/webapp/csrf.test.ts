import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import type { Page } from './crawl.ts';
import { csrfFindings, looksRandom, MAX_CSRF_FINDINGS, sessionCookies, tokenField } from './csrf.ts';
import { parseHtml } from './html.ts';

const origin = 'http://shop.test';
const pageOf = (path: string, html: string, headers: HttpResponse['headers'] = {}, status = 200): Page => {
  const url = new URL(path, origin);
  return {
    url,
    response: {
      url: url.href,
      status,
      headers: { 'content-type': 'text/html', ...headers },
      body: html,
      redirects: [],
    },
    facts: parseHtml(html, url),
    depth: 1,
  };
};
const sid = [{ name: 'sid', sameSite: null }];
const forms = (html: string) => parseHtml(html, new URL('/a/', origin)).forms;

describe('anti-forgery tokens', () => {
  it('takes a hidden field named for a token, or a random hidden value', () => {
    const [named, random, plain] = forms(`
      <form method="post"><input type="hidden" name="authenticity_token" value="abc12345"></form>
      <form method="post"><input type="hidden" name="state" value="Zk3q9PxW-2mLr7Tn0bYc"></form>
      <form method="post"><input type="hidden" name="id" value="42"><input type="hidden" name="next" value="/account/settings"></form>`);
    expect(tokenField(named!)).toBe('authenticity_token');
    expect(tokenField(random!)).toBe('state');
    expect(tokenField(plain!)).toBeNull();
  });

  it('tells random values from words, numbers and paths', () => {
    expect(looksRandom('265b30f1b7a6b01ff9839982bccdc1f2')).toBe(true);
    expect(looksRandom('1234567890123456789')).toBe(false);
    expect(looksRandom('/account/settings')).toBe(false);
    expect(looksRandom('short1A')).toBe(false);
  });
});

describe('csrfFindings', () => {
  const account = pageOf(
    '/account',
    `<form method="post" action="/account/email"><input name="email"></form>
     <form method="post" action="/account/password"><input type="password" name="current"><input type="password" name="next"></form>
     <form method="post" action="/login"><input name="email"><input type="password" name="password"></form>
     <form method="post" action="/logout"><button>Sign out</button><input type="hidden" name="x" value="1"></form>
     <form method="post" action="/register"><input name="email"><input type="password" name="password"></form>
     <form action="/search"><input name="q"></form>
     <form method="post" action="/app/usersearch"><input name="login"></form>
     <form method="post" action="/catalogue"><input name="q"><input name="sort"></form>
     <form method="post" action="https://elsewhere.test/subscribe"><input name="email"></form>
     <form method="post" action="/forgotpw"><input name="login"></form>
     <form method="post" action="/reset-password"><input type="password" name="password"><input type="password" name="cpassword"></form>`,
  );

  it('reports state-changing forms without a token, never login, sign-up, logout, reset-mail, search, GET or foreign forms', () => {
    const found = csrfFindings([account], origin, sid);
    expect(found.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.csrf.missing-token', `${origin}/account/email`],
      ['web.csrf.missing-token', `${origin}/account/password`],
      // A request for a reset mail acts for nobody; a reset that sets a password does.
      ['web.csrf.missing-token', `${origin}/reset-password`],
    ]);
    expect(found[0]!.evidence).toContain('POST form on /account (fields: email)');
    expect(found[0]!.evidence).toContain('sid (no SameSite)');
  });

  it('is silent when the session cookie is SameSite=Lax or Strict', () => {
    expect(csrfFindings([account], origin, [{ name: 'sid', sameSite: 'Lax' }])).toEqual([]);
    expect(csrfFindings([account], origin, [{ name: 'sid', sameSite: 'strict' }])).toEqual([]);
    // SameSite=None sends it cross-site like no attribute does.
    expect(csrfFindings([account], origin, [{ name: 'sid', sameSite: 'None' }])).toHaveLength(3);
  });

  it('is silent without a cookie session, and does not count an anti-forgery cookie as one', () => {
    expect(csrfFindings([account], origin, [])).toEqual([]);
    expect(csrfFindings([account], origin, [{ name: '_csrf', sameSite: null }])).toEqual([]);
  });

  it('is silent on forms with a token and on pages that give scripts one in a meta tag', () => {
    const tokened = pageOf(
      '/settings',
      '<form method="post" action="/settings"><input name="nick"><input type="hidden" name="_csrf" value="q8Zr-1Lm9xKa"></form>',
    );
    const meta = pageOf(
      '/profile',
      '<meta name="csrf-token" content="Zk3q9PxW2mLr7Tn0"><form method="post" action="/profile"><input name="bio"></form>',
    );
    expect(csrfFindings([tokened, meta], origin, sid)).toEqual([]);
  });

  it('reports each action once, at most MAX_CSRF_FINDINGS forms', () => {
    const many = Array.from({ length: MAX_CSRF_FINDINGS + 5 }, (_, i) =>
      pageOf(
        `/p${i}`,
        `<form method="post" action="/items/${i}"><input name="qty"></form><form method="post" action="/items/0"><input name="qty"></form>`,
      ),
    );
    expect(csrfFindings(many, origin, sid)).toHaveLength(MAX_CSRF_FINDINGS);
  });
});

describe('sessionCookies', () => {
  it("takes each cookie's SameSite from its last Set-Cookie, then from the jar, and leaves unknown ones out", () => {
    const pages = [
      pageOf('/login', '', { 'set-cookie': ['sid=1; Path=/; HttpOnly', 'pref=dark; SameSite=Lax'] }),
      pageOf('/account', '', { 'set-cookie': ['sid=2; Path=/; HttpOnly; SameSite=Strict'] }),
    ];
    expect(
      sessionCookies(
        [{ name: 'sid' }, { name: 'pref' }, { name: 'jarred', sameSite: 'lax' }, { name: 'scripted' }],
        pages,
      ),
    ).toEqual([
      { name: 'sid', sameSite: 'Strict' },
      { name: 'pref', sameSite: 'Lax' },
      { name: 'jarred', sameSite: 'lax' },
    ]);
  });
});
