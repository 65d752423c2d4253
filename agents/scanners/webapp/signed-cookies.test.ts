// The cookies below were made by the signing libraries themselves (Flask 3.1's session serializer,
// cookie-signature 1.0 as express-session uses it, Keygrip 1.1 as cookie-session and Koa use it), recorded so
// that this test needs none of them.
import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import type { CookieSighting } from './signed-cookies.ts';
import { cookiesOfAnswer, signedCookieFindings, signedCookieLimits } from './signed-cookies.ts';

const at = 'http://notes.test/login';
const cookie = (name: string, value: string): CookieSighting => ({ name, value, seenIn: at });
const judged = (...cookies: CookieSighting[]) =>
  signedCookieFindings(cookies, ['notes'], 'http://notes.test/').map((f) => [f.rule_id, f.evidence]);

const flask = {
  dev: 'eyJ1c2VyX2lkIjoxfQ.awnH_Q.dIc1Rzq-IagI58WlNf71k6Gbosg',
  devCompressed: '.eJyrVkrKTFeyUqoYBYMKKOkolRanFsVnpihZGdYCAAl8wjM.awnH_Q.6HkzEN-uZWpR9F0tBngaOMi4xxc',
  quickstartBytes: 'eyJ1c2VyX2lkIjoxfQ.awnH_Q.vgils7KSc_MPTF5WVTomOjsWL6o',
  random: 'eyJ1c2VyX2lkIjoxfQ.awnH_Q.REE_3AVhgqVhEFBZ_3h4ZjgfEdU',
};
const express = {
  keyboardCat: 's%3AkHh6WSUd1xlT9DfsRZ6gpG3cO4bR4k0w.VYMCpXlQvIArM5quGX%2FCZAOB9LJi0V90xdOVD%2Fkwad4',
  ownSecret: 's%3AkHh6WSUd1xlT9DfsRZ6gpG3cO4bR4k0w.yqsXHNnmUq0jugg93OwohX6WYVf0rSbAebzpuejNAac',
};
const keygripValue = 'eyJ2aWV3cyI6M30=';

describe('signed cookies', () => {
  it("finds Flask's session under the tutorial's key and the quickstart's bytes, compressed or not", () => {
    for (const value of [flask.dev, flask.devCompressed]) {
      expect(judged(cookie('session', value))).toEqual([
        ['web.auth.session-cookie-forgeable', expect.stringContaining('itsdangerous') as string],
      ]);
    }
    expect(judged(cookie('session', flask.dev))[0]?.[1]).toContain('"dev"');
    expect(judged(cookie('session', flask.quickstartBytes))).toHaveLength(1);
    expect(judged(cookie('session', flask.random))).toEqual([]);
  });

  it("finds express-session's signed id under the README's secret, as a weaker rule", () => {
    expect(judged(cookie('connect.sid', express.keyboardCat))).toEqual([
      ['web.auth.cookie-weak-secret', expect.stringContaining('"keyboard cat"') as string],
    ]);
    expect(judged(cookie('connect.sid', express.ownSecret))).toEqual([]);
  });

  it('finds Keygrip pairs (SHA-1 and SHA-256) holding the session, and needs the .sig cookie', () => {
    expect(
      judged(cookie('session', keygripValue), cookie('session.sig', 'njPNn3HcsR9VxkKOCfb7ufiz-34')),
    ).toEqual([['web.auth.session-cookie-forgeable', expect.stringContaining('"key1"') as string]]);
    expect(
      judged(
        cookie('koa.sess', keygripValue),
        cookie('koa.sess.sig', 'lFlTzNyRZdgvyxcpUoZEu7HChQcY20C08erll9XzJfw'),
      ),
    ).toEqual([
      ['web.auth.session-cookie-forgeable', expect.stringContaining('"im a newer secret"') as string],
    ]);
    // A signed value that is no session: the signature alone is weak.
    expect(judged(cookie('remember', 'yes'), cookie('remember.sig', 'XfZujJkUk2qMSGEweZclMN-InF4'))).toEqual([
      ['web.auth.cookie-weak-secret', expect.stringContaining('Keygrip') as string],
    ]);
    expect(
      judged(cookie('session', keygripValue), cookie('session.sig', '9UcXmfkB9E_gv4tUNoJFz0yX558')),
    ).toEqual([]);
    expect(judged(cookie('session', keygripValue))).toEqual([]);
  });

  it('judges each cookie once, bounded, and stays silent on look-alikes and hostile values', () => {
    const again = Array.from({ length: 5 }, () => cookie('session', flask.dev));
    expect(judged(...again)).toHaveLength(1);
    // One finding per rule at the root: the secret is the whole app's.
    const both = signedCookieFindings(
      [cookie('session', flask.dev), cookie('connect.sid', express.keyboardCat), cookie('other', flask.dev)],
      [],
      'http://notes.test/',
    );
    expect(both.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.auth.session-cookie-forgeable', 'http://notes.test/'],
      ['web.auth.cookie-weak-secret', 'http://notes.test/'],
    ]);
    expect(both[0]!.evidence).toMatch(/the cookie session \(seen in .*; the cookie other /);
    const hostile = [
      cookie('a', 's:'),
      cookie('b', 'x'.repeat(signedCookieLimits.maxValueChars + 1)),
      cookie('c', `.${'A'.repeat(3000)}.awnH_Q.dIc1Rzq-IagI58WlNf71k6Gbosg`),
      cookie('d', '%E0%A4%A'),
      cookie('e', 'a.b.c'),
    ];
    expect(judged(...hostile)).toEqual([]);
    const many = Array.from({ length: signedCookieLimits.maxCookies }, (_, i) => cookie(`c${i}`, `v${i}`));
    expect(judged(...many, cookie('session', flask.dev))).toEqual([]);
  });
});

describe('cookiesOfAnswer', () => {
  it('reads every Set-Cookie line, values as sent', () => {
    const response: HttpResponse = {
      url: at,
      status: 200,
      headers: { 'set-cookie': [`connect.sid=${express.keyboardCat}; Path=/; HttpOnly`, 'broken', '=x'] },
      body: '',
      redirects: [],
    };
    expect(cookiesOfAnswer(response, at)).toEqual([
      { name: 'connect.sid', value: express.keyboardCat, seenIn: at },
    ]);
  });
});
