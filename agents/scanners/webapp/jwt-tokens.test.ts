import { randomBytes } from 'node:crypto';

import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import { jwtFindings, jwtLimits, tokensIn, tokensOfAnswer, weakKey } from './jwt-tokens.ts';
import { maxKeyCandidates, siteKeys, WELL_KNOWN_KEYS } from './well-known-keys.ts';

const claims = { sub: 'owner@example.com', role: 'user' };
const hs = (key: string | Uint8Array, alg = 'HS256') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setIssuedAt()
    .sign(typeof key === 'string' ? new TextEncoder().encode(key) : key);
const at = 'http://notes.test/login';
const answer = (headers: HttpResponse['headers'], body = ''): HttpResponse => ({
  url: at,
  status: 200,
  headers,
  body,
  redirects: [],
});

describe('the keys tried', () => {
  it('are a bounded list, with the site name and its variants', () => {
    expect(WELL_KNOWN_KEYS.length).toBeLessThan(maxKeyCandidates);
    expect(new Set(WELL_KNOWN_KEYS).size).toBe(WELL_KNOWN_KEYS.length);
    expect(siteKeys(['Notes', '127', 'ab'])).toEqual(
      expect.arrayContaining(['notes', 'notes-secret', 'notes_key']),
    );
    expect(siteKeys(['127', 'ab'])).toEqual([]);
  });
});

describe('weakKey', () => {
  it('finds a well-known HMAC key for each hash, and none for a random one', async () => {
    expect(weakKey(await hs('secret'), 'HS256', WELL_KNOWN_KEYS)).toBe('secret');
    expect(weakKey(await hs('changeme', 'HS384'), 'HS384', WELL_KNOWN_KEYS)).toBe('changeme');
    expect(weakKey(await hs('keyboard cat', 'HS512'), 'HS512', WELL_KNOWN_KEYS)).toBe('keyboard cat');
    expect(weakKey(await hs(randomBytes(64)), 'HS256', WELL_KNOWN_KEYS)).toBeNull();
    // Not an HMAC algorithm: nothing to try.
    expect(weakKey(await hs('secret'), 'RS256', WELL_KNOWN_KEYS)).toBeNull();
  });
});

describe('tokens in answers', () => {
  it("reads Set-Cookie values (URL-encoded or not), headers and JSON bodies, never HTML's", async () => {
    const token = await hs('secret');
    expect(tokensOfAnswer(answer({ 'set-cookie': [`access_token=${token}; Path=/; HttpOnly`] }), at)).toEqual(
      [{ token, location: at, how: 'the cookie access_token' }],
    );
    expect(tokensOfAnswer(answer({ 'set-cookie': [`t=${encodeURIComponent(token)}`] }), at)).toHaveLength(1);
    expect(tokensOfAnswer(answer({ 'x-auth-token': token }), at)[0]!.how).toBe('the x-auth-token header');
    expect(
      tokensOfAnswer(answer({ 'content-type': 'application/json' }, JSON.stringify({ token })), at)[0]!.how,
    ).toBe('the JSON answer');
    expect(
      tokensOfAnswer(answer({ 'content-type': 'text/html' }, `<pre>Example: ${token}</pre>`), at),
    ).toEqual([]);
  });

  it('bounds the text read, the token length and the tokens taken from one text', () => {
    const many = Array.from({ length: 100 }, (_, i) => `"eyJhbGciOiJIUzI1NiJ9.eyJpIjo${i}fQ.c2ln"`).join(',');
    expect(tokensIn(`[${many}]`)).toHaveLength(jwtLimits.maxTokens);
    const long = `eyJhbGciOiJIUzI1NiJ9.${'a'.repeat(jwtLimits.maxTokenChars)}.sig`;
    expect(tokensIn(long)).toEqual([]);
    expect(tokensIn(`${' '.repeat(jwtLimits.maxBodyChars)}eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abc`)).toEqual(
      [],
    );
  });
});

describe('jwtFindings', () => {
  it('reports unsigned tokens and well-known keys once per place, naming the claims but not their values', async () => {
    const unsigned = new UnsecuredJWT(claims).setIssuedAt().encode();
    const weak = await hs('secret');
    const found = jwtFindings(
      [
        { token: unsigned, location: 'http://tasks.test/api/token', how: 'the JSON answer' },
        { token: weak, location: at, how: 'the cookie access_token' },
        { token: await hs('secret'), location: at, how: 'the cookie access_token' },
      ],
      [],
    );
    expect(found.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.auth.jwt-unsigned', 'http://tasks.test/api/token'],
      ['web.auth.jwt-weak-secret', at],
    ]);
    expect(found[0]!.evidence).toContain('"alg": "none" and no signature (claims: sub, role, iat)');
    expect(found[1]!.evidence).toContain('signed with HS256 under the key "secret"');
    expect(found.map((f) => f.evidence).join(' ')).not.toContain('owner@example.com');
  });

  it("tries the site's own name", async () => {
    const found = jwtFindings(
      [{ token: await hs('notes-secret'), location: at, how: 'the cookie t' }],
      ['notes'],
    );
    expect(found[0]?.evidence).toContain('"notes-secret"');
  });

  it('is silent on strong HMAC keys, asymmetric signatures and look-alike strings', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    const found = jwtFindings(
      [
        { token: await hs(randomBytes(32)), location: at, how: 'the cookie t' },
        { token: rs, location: at, how: 'the cookie t' },
        { token: 'eyJub3QiOiJqc29u.eyJ4IjoxfQ.c2ln', location: at, how: 'the cookie t' },
      ],
      ['notes'],
    );
    expect(found).toEqual([]);
  });
});
