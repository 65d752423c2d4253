// What the login session protects, tested on the API calls the app made only once logged in:
// - sent again without the session's cookie and token: the same personal data must not come back;
// - with a neighbouring record id, in the same session: another user's record must not come back (IDOR);
// - with the session's JSON Web Token unsigned ("alg": "none") or signed by no key: it must be refused
//   (on up to FORGERY_ENDPOINTS endpoints: some routes of an app may check the signature, others not).
// Each is differential (compared with the answer the app itself got) before anything is reported, and
// every request is a GET the app already made, changed in one place.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import type { HttpClient, HttpResponse, HttpSession } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import { redactEmail } from '../discovery/personal-data.ts';
import { webappFinding } from '../rules.ts';
import { sessionOnly } from './api-headers.ts';
import { emailsIn, parseJson, personalFields } from './personal-data.ts';

const maxCandidates = 15;
const credentialHeaders = new Set(['cookie', 'authorization']);
const dropped = new Set(['host', 'content-length', 'accept-encoding', 'user-agent', 'connection']);

const ok = (r: HttpResponse | null): r is HttpResponse => r !== null && r.status >= 200 && r.status < 300;
const isJson = (r: HttpResponse) => /json/i.test(header(r, 'content-type') ?? '');
const sameBody = (a: HttpResponse, b: HttpResponse) => {
  const [x, y] = [parseJson(a.body), parseJson(b.body)];
  return x !== undefined && JSON.stringify(x) === JSON.stringify(y);
};

/** The app's own request headers, with its credentials replaced by `credentials`. */
function replay(call: ApiCall, credentials: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    if (!credentialHeaders.has(name) && !dropped.has(name)) {
      out[name] = value;
    }
  }
  return { ...out, ...credentials };
}

/** Without the session's credentials (or with forged ones given in `headers`). */
const send = (client: HttpClient, url: URL, headers: Record<string, string>) =>
  client.tryRequest(url, { headers, anonymous: true });

/** In the login session as it is now (renewed if it was lost since the app made the call). */
const inSession = (client: HttpClient, url: URL, call: ApiCall) =>
  client.tryRequest(url, { headers: replay(call, {}) });

/** The user the session belongs to, as the app's own answer names them. */
function identityOf(call: ApiCall, username: string | null): string | null {
  if (username && call.response.body.includes(username)) {
    return username;
  }
  return emailsIn(call.response.body)[0] ?? null;
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** A bearer JSON Web Token, split in its three parts. */
function bearerJwt(authorization: string | undefined): [string, string, string] | null {
  const token = /^Bearer\s+([\w-]+)\.([\w-]+)\.([\w-]*)$/i.exec(authorization ?? '');
  return token ? [token[1]!, token[2]!, token[3]!] : null;
}

export async function sessionFindings(
  client: HttpClient,
  session: HttpSession,
  calls: ApiCall[],
  username: string | null,
  onProgress: () => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const candidates = sessionOnly(calls)
    .filter((c) => c.method === 'GET' && ok(c.response) && isJson(c.response))
    .filter((c) => !seen.has(c.url.href) && seen.add(c.url.href))
    .slice(0, maxCandidates);
  /** Calls whose answer needs the session: where a forged token can be told from a real one. */
  const guarded: ApiCall[] = [];
  for (const call of candidates) {
    onProgress();
    const body = parseJson(call.response.body);
    const fields = [...personalFields(body)];
    const identity = identityOf(call, username);
    const without = await send(client, call.url, replay(call, {}));
    if (without && [401, 403].includes(without.status)) {
      guarded.push(call);
    } else if (ok(without) && sameBody(without, call.response) && (fields.length > 0 || identity)) {
      findings.push(
        webappFinding('web.auth.api-without-session', {
          location: call.url.href,
          evidence: `GET ${call.url.pathname}${call.url.search} answered HTTP ${without.status} without the session's cookie or token, the same ${without.body.length} bytes as in the session${fields.length ? ` (personal fields: ${fields.slice(0, 5).join(', ')})` : ''}`,
        }),
      );
    }
    const idor = identity ? await neighbourRecord(client, call, identity) : null;
    if (idor) {
      findings.push(idor);
    }
  }
  const jwt = await forgedTokenAccepted(client, session, guarded);
  if (jwt) {
    findings.push(jwt);
  }
  return findings;
}

/** Query parameters that name a record of someone: ?id=, ?user_id=, ?owner=, ?account=… */
const idParam = /^(?:id|uid|user|owner|account|customer|(?:[a-z]+_)?id)$/i;

/** Where the record's id sits in the URL: its last numeric path segment, or an id-like query parameter. */
function idSlot(url: URL): { id: number; at: (other: number | string) => URL; template: string } | null {
  const segments = url.pathname.split('/');
  const index = segments.findLastIndex((s) => /^\d{1,12}$/.test(s));
  if (index >= 0) {
    const at = (other: number | string) => {
      const next = new URL(url);
      next.pathname = segments.map((s, i) => (i === index ? String(other) : s)).join('/');
      return next;
    };
    return {
      id: Number(segments[index]),
      at,
      template: `${url.origin}${segments.map((s, i) => (i === index ? '{id}' : s)).join('/')}`,
    };
  }
  const name = [...url.searchParams.keys()].find(
    (k) => idParam.test(k) && /^\d{1,12}$/.test(url.searchParams.get(k) ?? ''),
  );
  if (!name) {
    return null;
  }
  const at = (other: number | string) => {
    const next = new URL(url);
    next.searchParams.set(name, String(other));
    return next;
  };
  return {
    id: Number(url.searchParams.get(name)),
    at,
    template: `${url.origin}${url.pathname}?${name}={id}`,
  };
}

/** The same record URL with the id one lower or higher, asked for in the same session. */
async function neighbourRecord(client: HttpClient, call: ApiCall, identity: string): Promise<Finding | null> {
  const slot = idSlot(call.url);
  if (!slot) {
    return null;
  }
  const ownKeys = Object.keys((parseJson(call.response.body) as object | undefined) ?? {})
    .sort()
    .join(',');
  for (const other of [slot.id - 1, slot.id + 1].filter((n) => n >= 0)) {
    const url = slot.at(other);
    const answer = await inSession(client, url, call);
    if (!ok(answer) || !isJson(answer) || answer.body.includes(identity)) {
      continue;
    }
    const keys = Object.keys((parseJson(answer.body) as object | undefined) ?? {})
      .sort()
      .join(',');
    const theirs = emailsIn(answer.body).filter((e) => e !== identity);
    if (keys === ownKeys && theirs.length > 0) {
      return webappFinding('web.auth.idor', {
        location: slot.template,
        evidence: `in the session of ${redactEmail(identity)}, GET ${url.pathname}${url.search} answered HTTP ${answer.status} with another user's record (${redactEmail(theirs[0]!)}); the app itself asked for ${call.url.pathname}${call.url.search}`,
      });
    }
  }
  return null;
}

/** The session's token with its signature removed ("alg": "none") or made by no key. */
const forgeries: { how: string; forge: (parts: [string, string, string]) => string }[] = [
  {
    how: 'with "alg": "none" and no signature',
    forge: ([, payload]) => `${base64url('{"alg":"none","typ":"JWT"}')}.${payload}.`,
  },
  {
    how: 'with a signature made by no key',
    forge: ([head, payload, signature]) =>
      `${head}.${payload}.${randomBytes(Math.max(32, Math.floor((signature.length * 3) / 4))).toString('base64url')}`,
  },
];

/**
 * Endpoints tried with a forged token. An app may check its tokens in two ways at once: a signature check
 * in front of some routes, a lookup of the exact token it issued in front of others (which refuses any
 * forgery whatever its algorithm); the first endpoint alone says nothing about the rest.
 */
export const FORGERY_ENDPOINTS = 4;

/** Endpoints that refuse requests without the session, tried with the session's token forged. */
async function forgedTokenAccepted(
  client: HttpClient,
  session: HttpSession,
  guarded: ApiCall[],
): Promise<Finding | null> {
  const seen = new Set<string>();
  const calls = [...guarded]
    .sort((a, b) => a.url.href.localeCompare(b.url.href))
    .filter((c) => bearerJwt(c.headers.authorization))
    .filter((c) => !seen.has(c.url.pathname) && seen.add(c.url.pathname))
    .slice(0, FORGERY_ENDPOINTS);
  for (const call of calls) {
    const finding = await forgeriesAccepted(client, session, call);
    if (finding) {
      return finding;
    }
  }
  return null;
}

/** One endpoint, tried with each forgery of the session's token. */
async function forgeriesAccepted(
  client: HttpClient,
  session: HttpSession,
  call: ApiCall,
): Promise<Finding | null> {
  const accepted: string[] = [];
  for (const { how, forge } of forgeries) {
    // Twice at most: a forgery refused because the session had just ended proves nothing, so it is
    // tried again in the renewed session.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const token = session.headers(call.url).authorization;
      const parts = bearerJwt(token);
      if (!parts) {
        break;
      }
      const answer = await send(client, call.url, replay(call, { authorization: `Bearer ${forge(parts)}` }));
      if (ok(answer) && sameBody(answer, call.response)) {
        accepted.push(how);
        break;
      }
      // Guard: a refusal counts only when the real token is still accepted right after it.
      const real = await inSession(client, call.url, call);
      if (!ok(real) || !sameBody(real, call.response) || session.headers(call.url).authorization === token) {
        break;
      }
    }
  }
  if (accepted.length === 0) {
    return null;
  }
  return webappFinding('web.auth.jwt-unverified', {
    location: call.url.href,
    evidence: `GET ${call.url.pathname} refuses requests without the token but answered HTTP 200 with the same data to the session's token ${accepted.join(', and ')}`,
  });
}
