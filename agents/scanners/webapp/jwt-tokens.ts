// Weak JSON Web Tokens the app issues, read from what the scan already holds (passive: nothing is sent):
// the cookies its answers set, its JSON answers (the login's own among them), its answers' headers, the
// Authorization header and web storage of its own pages, and the scan's session. A token is judged by its
// header and signature alone:
// - "alg": "none" (any spelling), or no signature at all: anyone can write such a token, and an app that
//   issues them takes them back;
// - HMAC (HS256/384/512) under a key from a short list of well-known ones (framework defaults, README and
//   tutorial examples, "secret", "changeme", the site's own name and a few variants): a key found so is a
//   key anyone can sign with. The list is bounded (at most a few hundred candidates), so is the work.
// Tokens found only in HTML or scripts (a library's example) are not the app's and are never judged.
import { createHmac } from 'node:crypto';

import { decodeProtectedHeader } from 'jose';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpResponse } from '../core/http-client.ts';
import { cookiesSet, header } from '../core/http-client.ts';
import { webappFinding } from './rules.ts';
import { keyCandidates, keySigning } from './well-known-keys.ts';

/** Distinct tokens judged per scan, the longest token taken, the body read of one answer. */
export const jwtLimits = { maxTokens: 30, maxTokenChars: 8192, maxBodyChars: 256 * 1024 };
/** Findings per rule: one cause, shown at a few places. */
const maxFindingsPerRule = 5;

/** Where a token was seen: the answer or request that carried it, and how. */
export interface TokenSighting {
  token: string;
  /** The URL findings are filed at: the answer that issued the token. */
  location: string;
  how: string;
}

const jwtPattern = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/** JSON Web Tokens in a text, bounded: the text read, the token's length, the tokens taken from one text. */
export function tokensIn(text: string): string[] {
  const found = text.slice(0, jwtLimits.maxBodyChars).match(jwtPattern) ?? [];
  return found.filter((t) => t.length <= jwtLimits.maxTokenChars).slice(0, jwtLimits.maxTokens);
}

/** Tokens in an answer: its Set-Cookie values, other headers, and its body when it is JSON. */
export function tokensOfAnswer(response: HttpResponse, location: string): TokenSighting[] {
  const out: TokenSighting[] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== 'set-cookie') {
      for (const line of ([] as string[]).concat(value ?? [])) {
        out.push(...tokensIn(line).map((token) => ({ token, location, how: `the ${name} header` })));
      }
    }
  }
  for (const { line } of cookiesSet(response)) {
    const how = `the cookie ${(line.split('=')[0] ?? '').trim().slice(0, 60)}`;
    out.push(...tokensIn(safeDecode(line.split(';')[0] ?? '')).map((token) => ({ token, location, how })));
  }
  if (/json/i.test(header(response, 'content-type') ?? '') || /^\s*[[{]/.test(response.body.slice(0, 16))) {
    out.push(...tokensIn(response.body).map((token) => ({ token, location, how: 'the JSON answer' })));
  }
  return out;
}

/** URL-decoded text, or the text as it is when it does not decode (a lone %). */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const hmacHashes: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/** The well-known key an HMAC token is signed with, or null. */
export function weakKey(token: string, alg: string, candidates: readonly string[]): string | null {
  const hash = hmacHashes[alg.toUpperCase()];
  const [head, payload, signature] = token.split('.');
  if (!hash || !head || !payload || !signature) {
    return null;
  }
  const input = `${head}.${payload}`;
  return keySigning(candidates, Buffer.from(signature, 'base64url'), (key) =>
    createHmac(hash, key).update(input).digest(),
  );
}

/** The names of a token's claims (never their values: they may be personal). */
function claimNames(token: string): string {
  try {
    const claims = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as unknown;
    return claims && typeof claims === 'object' ? Object.keys(claims).slice(0, 8).join(', ') : '';
  } catch {
    return '';
  }
}

/** Findings for the tokens sighted, judged once each; `names` give the site's own keys to try. */
export function jwtFindings(sightings: readonly TokenSighting[], names: readonly string[]): Finding[] {
  const candidates = keyCandidates(names);
  const judged = new Set<string>();
  const filed = new Map<string, Finding>();
  const count = { 'web.auth.jwt-unsigned': 0, 'web.auth.jwt-weak-secret': 0 };
  for (const sighting of sightings) {
    if (judged.size >= jwtLimits.maxTokens) {
      break;
    }
    if (judged.has(sighting.token)) {
      continue;
    }
    judged.add(sighting.token);
    let alg: string;
    try {
      const protectedHeader = decodeProtectedHeader(sighting.token);
      if (typeof protectedHeader.alg !== 'string') {
        continue;
      }
      alg = protectedHeader.alg;
    } catch {
      // Guard: not a JWT after all (a look-alike string); nothing to judge.
      continue;
    }
    const claims = claimNames(sighting.token);
    const signature = sighting.token.split('.')[2] ?? '';
    let rule: keyof typeof count | null = null;
    let evidence = '';
    if (alg.toLowerCase() === 'none' || signature === '') {
      rule = 'web.auth.jwt-unsigned';
      evidence = `${sighting.how} holds a JSON Web Token with "alg": "${alg.slice(0, 20)}" and ${signature === '' ? 'no signature' : 'a signature nothing checks'}${claims ? ` (claims: ${claims})` : ''}: anyone can write one`;
    } else {
      const key = weakKey(sighting.token, alg, candidates);
      if (key !== null) {
        rule = 'web.auth.jwt-weak-secret';
        evidence = `${sighting.how} holds a JSON Web Token signed with ${alg.toUpperCase()} under the key "${key}", one of ${candidates.length} well-known keys tried${claims ? ` (claims: ${claims})` : ''}: anyone can sign tokens the app accepts as its own`;
      }
    }
    if (!rule || filed.has(`${rule} ${sighting.location}`) || count[rule] >= maxFindingsPerRule) {
      continue;
    }
    count[rule] += 1;
    filed.set(`${rule} ${sighting.location}`, webappFinding(rule, { location: sighting.location, evidence }));
  }
  return [...filed.values()];
}
