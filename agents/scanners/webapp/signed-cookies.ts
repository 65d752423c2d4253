// Cookies the app signs with a well-known key, read from what the scan already holds (passive: nothing is
// sent): the cookies its answers set and the scan session's jar. Web frameworks sign the cookie that holds
// the session, or its id, with the application's secret; a secret anyone can guess lets anyone sign one.
// Three signing schemes are recognised by their shape and checked against the well-known keys:
// - cookie-signature (express-session, cookie-parser's signed cookies): `s:<value>.<HMAC-SHA256, base64>`;
// - Keygrip (cookie-session, Koa's signed cookies and koa-session): a `<name>.sig` cookie beside `<name>`
//   holding the HMAC (SHA-1 by default, SHA-256 in some frameworks), base64url, of `<name>=<value>`;
// - itsdangerous (Flask's session): `<payload>.<timestamp>.<HMAC-SHA1, base64url>` under the key derived as
//   HMAC-SHA1(secret, "cookie-session").
// A cookie that holds the session's data itself (JSON, as Flask and cookie-session keep it) is a forgeable
// session: anyone can write one for any user. A signed id (express-session) only loses its signature's
// protection: the rule says which.
import { createHmac } from 'node:crypto';
import { inflateSync } from 'node:zlib';

import type { Finding } from '../../../shared/findings.ts';
import { cookiesSet } from '../core/http-client.ts';
import type { HttpResponse } from '../core/http-client.ts';
import { safeDecode } from './jwt-tokens.ts';
import { webappFinding } from './rules.ts';
import { keyCandidates, keySigning } from './well-known-keys.ts';

/** Cookies judged per scan, the longest value read, cookies named in one finding. */
export const signedCookieLimits = { maxCookies: 40, maxValueChars: 4096, maxNamed: 3 };

/** A cookie as the app set it: its name, its value as sent (not decoded), and where the scan saw it. */
export interface CookieSighting {
  name: string;
  value: string;
  seenIn: string;
}

/** The cookies an answer sets (its Set-Cookie lines), values as sent. */
export function cookiesOfAnswer(response: HttpResponse, seenIn: string): CookieSighting[] {
  const out: CookieSighting[] = [];
  for (const { line } of cookiesSet(response)) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) {
      out.push({ name: pair.slice(0, eq).trim().slice(0, 100), value: pair.slice(eq + 1).trim(), seenIn });
    }
  }
  return out;
}

type Scheme = 'cookie-signature' | 'keygrip' | 'itsdangerous';

/** What a matched signature says: the scheme, the key, and whether the cookie holds the session's data. */
interface Verdict {
  scheme: Scheme;
  key: string;
  holdsData: boolean;
}

const schemeNames: Record<Scheme, string> = {
  'cookie-signature': 'cookie-signature (express-session, cookie-parser), HMAC-SHA256',
  keygrip: 'Keygrip (cookie-session, Koa)',
  itsdangerous: "itsdangerous (Flask's session), HMAC-SHA1",
};

/** Whether base64 (or base64url) text, or its zlib-deflated form (Flask's leading "."), is a JSON object. */
function isJsonObject(encoded: string): boolean {
  try {
    const compressed = encoded.startsWith('.');
    const raw = Buffer.from(compressed ? encoded.slice(1) : encoded, 'base64');
    // Guard: a deflated payload is inflated to a bounded size only (a hostile cookie cannot blow it up).
    const text = (compressed ? inflateSync(raw, { maxOutputLength: 64 * 1024 }) : raw).toString('utf8');
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const hmac = (hash: string, key: Buffer, data: string | Buffer) =>
  createHmac(hash, key).update(data).digest();

/** `s:<value>.<signature>`, the value URL-decoded as cookie-parser and express-session read it. */
function cookieSignature(value: string, candidates: readonly string[]): Verdict | null {
  const match = /^s:([^]{1,4000})\.([A-Za-z0-9+/]{43})$/.exec(safeDecode(value));
  if (!match) {
    return null;
  }
  const [, signed = '', signature = ''] = match;
  const key = keySigning(candidates, Buffer.from(signature, 'base64'), (k) => hmac('sha256', k, signed));
  return key === null ? null : { scheme: 'cookie-signature', key, holdsData: false };
}

/** A `<name>.sig` cookie's signature of `<name>=<value>` (SHA-1 or SHA-256 by its length). */
function keygrip(
  name: string,
  value: string,
  signature: string,
  candidates: readonly string[],
): Verdict | null {
  const bytes = Buffer.from(signature, 'base64url');
  const hash = /^[A-Za-z0-9_-]{27}$/.test(signature)
    ? 'sha1'
    : /^[A-Za-z0-9_-]{43}$/.test(signature)
      ? 'sha256'
      : null;
  if (!hash) {
    return null;
  }
  const key = keySigning(candidates, bytes, (k) => hmac(hash, k, `${name}=${value}`));
  return key === null ? null : { scheme: 'keygrip', key, holdsData: isJsonObject(value) };
}

/** `<payload>.<timestamp>.<signature>` as Flask's session signs it. */
function itsdangerous(value: string, candidates: readonly string[]): Verdict | null {
  const match = /^(\.?[A-Za-z0-9_-]{2,4000}\.[A-Za-z0-9_-]{4,12})\.([A-Za-z0-9_-]{27})$/.exec(value);
  if (!match) {
    return null;
  }
  const [, signed = '', signature = ''] = match;
  const key = keySigning(candidates, Buffer.from(signature, 'base64url'), (k) =>
    hmac('sha1', hmac('sha1', k, 'cookie-session'), signed),
  );
  const payload = signed.slice(0, signed.lastIndexOf('.'));
  return key === null ? null : { scheme: 'itsdangerous', key, holdsData: isJsonObject(payload) };
}

/**
 * Findings for the cookies sighted, each cookie name judged once; `names` give the site's own keys to try.
 * A signing secret is the whole app's: one finding per rule at `root`, naming each cookie and where it was set.
 */
export function signedCookieFindings(
  sightings: readonly CookieSighting[],
  names: readonly string[],
  root: string,
): Finding[] {
  const candidates = keyCandidates(names);
  const seen = new Set<string>();
  const cookies = sightings
    .filter((c) => c.value.length > 0 && c.value.length <= signedCookieLimits.maxValueChars)
    .filter((c) => !seen.has(`${c.name}=${c.value}`) && seen.add(`${c.name}=${c.value}`))
    .slice(0, signedCookieLimits.maxCookies);
  const found = {
    'web.auth.session-cookie-forgeable': [] as string[],
    'web.auth.cookie-weak-secret': [] as string[],
  };
  const judgedNames = new Set<string>();
  for (const cookie of cookies) {
    if (judgedNames.has(cookie.name)) {
      continue;
    }
    // The signature the same answer set beside it, else any seen.
    const signatures = cookies.filter((c) => c.name === `${cookie.name}.sig`);
    const signature = signatures.find((c) => c.seenIn === cookie.seenIn) ?? signatures[0];
    const verdict =
      cookieSignature(cookie.value, candidates) ??
      (signature ? keygrip(cookie.name, cookie.value, signature.value, candidates) : null) ??
      itsdangerous(cookie.value, candidates);
    if (!verdict) {
      continue;
    }
    // One verdict per cookie name: its next values are signed with the same key.
    judgedNames.add(cookie.name);
    const rule = verdict.holdsData ? 'web.auth.session-cookie-forgeable' : 'web.auth.cookie-weak-secret';
    found[rule].push(
      `the cookie ${cookie.name.slice(0, 60)} (seen in ${cookie.seenIn}) is signed with ${schemeNames[verdict.scheme]} under the key ${JSON.stringify(verdict.key)}`,
    );
  }
  const consequence = {
    'web.auth.session-cookie-forgeable':
      'it holds the session itself, so anyone can write a session for any user that the app will take as its own',
    'web.auth.cookie-weak-secret':
      'anyone can sign a value the app takes as its own (a session id of their choosing, fixed on a victim)',
  };
  return (Object.keys(found) as (keyof typeof found)[])
    .filter((rule) => found[rule].length > 0)
    .map((rule) => {
      const cookiesNamed = found[rule].slice(0, signedCookieLimits.maxNamed);
      const evidence = `${cookiesNamed.join('; ')}; one of ${candidates.length} well-known keys tried: ${consequence[rule]}`;
      return webappFinding(rule, { location: root, evidence });
    });
}
