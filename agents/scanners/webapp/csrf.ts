// Cross-site request forgery, read from what the crawl already fetched (passive: nothing is sent). A form
// is forgeable when another site can make a logged-in browser send it and the server can tell that request
// from the user's own by nothing at all:
// - it changes state: POST (a GET form is a search or a filter; the crawl follows no GET forms as actions);
// - it carries no anti-forgery token: no hidden field named for one (csrf, xsrf, _token, authenticity_token,
//   __RequestVerificationToken, nonce…) with a value, and no hidden value random enough to be one;
// - the page does not hand scripts a token either (a csrf-token meta tag, Rails and Laravel style: the app
//   then sends it in a header of its own, which no other site can set);
// - the session it rides on is a cookie that browsers send cross-site: no SameSite=Lax or Strict on any
//   of the session's cookies (a missing attribute included: Chrome treats it as Lax, Firefox and Safari do
//   not, and Chrome still sends it on a top-level POST in the first two minutes).
// Only an authenticated scan whose session is a cookie can say so: a logged-out visitor's forms act for
// nobody, and a session carried in an Authorization header is not sent by the browser on its own.
// Login forms are left alone: a forged login signs the victim into the attacker's account (login CSRF), a
// real but minor risk that needs a victim to then type secrets into that account; sign-up, logout and
// password-reset request forms likewise, and POST forms that only read (a search or a filter, by their action or their only fields). JSON
// endpoints that might take a cross-site simple request (a text/plain body) can only be proven by sending
// them one, which may change data: that proof is the intrusive check write/json-csrf.ts.
import type { Finding } from '../../../shared/findings.ts';
import { cookiesSet } from '../core/http-client.ts';
import type { ScanSession } from './auth/session.ts';
import type { Page } from './crawl.ts';
import type { HtmlForm } from './html.ts';
import { webappFinding } from './rules.ts';

/** Forms reported per scan: the same missing protection on every form is one cause, shown at a few. */
export const MAX_CSRF_FINDINGS = 10;

/** A cookie of the session, with the SameSite attribute its Set-Cookie gave it (null: none given). */
export interface SessionCookie {
  name: string;
  sameSite: string | null;
}

/** A field named for an anti-forgery token (the probes of other checks leave such fields alone too). */
export const antiForgeryField =
  /csrf|xsrf|_token$|^token$|authenticity|verification|nonce|form_?key|anti_?forgery|request_?token|__requestverificationtoken|_wpnonce|sesskey|formhash/i;
/** Cookies that are not the session: anti-forgery cookies (double-submit), preferences, analytics. */
const notSession = /csrf|xsrf|^_ga|^_gid|^_pk_|consent|lang|locale|theme|timezone|^tz$/i;
/** Forms that act on no one's data once signed in. */
const loginAction = /log-?in|sign-?in|logon|session|auth/i;
const signUpOrOut = /regist|sign-?up|join|log-?out|sign-?out|logoff/i;
const resetRequest = /forgot|reset|recover/i;
/** Forms that only read: a search or a filter, by their action or by every field they have. */
const readsOnly = /search|lookup|filter|query/i;
const readingFields = /^(?:q|query|search|s|term|terms|keywords?|filter|sort|order|page|per_page|lang)$/i;
const metaToken = /<meta[^>]+name\s*=\s*["']?(?:csrf-token|csrf_token|_csrf|xsrf-token|csrf-param)\b/i;

/**
 * A value random enough to be a token: 16 characters or more of a token's alphabet (hex, base64, base64url),
 * letters and digits mixed, of many kinds; not a number, a word, a path or an address.
 */
export function looksRandom(value: string): boolean {
  if (
    value.length < 16 ||
    value.length > 512 ||
    !/^[A-Za-z0-9+/=_.~-]+$/.test(value) ||
    value.startsWith('/')
  ) {
    return false;
  }
  return /\d/.test(value) && /[A-Za-z]/.test(value) && new Set(value).size >= 10;
}

/** The hidden field that protects the form, or null. */
export function tokenField(form: HtmlForm): string | null {
  for (const [name, value] of Object.entries(form.hidden ?? {})) {
    if ((antiForgeryField.test(name) && value.length >= 8) || looksRandom(value)) {
      return name;
    }
  }
  return null;
}

/**
 * A form a forged request could not misuse for anyone: a login, a sign-up, a logout, a search, a request
 * for a password-reset mail (it goes to the account's owner; a reset that sets a password has a password
 * field and is judged).
 */
function harmless(form: HtmlForm): boolean {
  const path = form.action.pathname;
  const visible = form.fields.filter((f) => !(f in (form.hidden ?? {})));
  if (
    signUpOrOut.test(path) ||
    (resetRequest.test(path) && (form.passwords?.length ?? 0) === 0) ||
    readsOnly.test(path) ||
    (visible.length > 0 && visible.every((f) => readingFields.test(f)))
  ) {
    return true;
  }
  return loginAction.test(path) && (form.passwords?.length ?? 0) === 1 && !/change|reset|update/i.test(path);
}

/** The evidence's words for the session's cookies: four at most, each with its SameSite. */
export const describeCookies = (cookies: readonly SessionCookie[]): string =>
  cookies
    .slice(0, 4)
    .map((c) => `${c.name} (${c.sameSite ? `SameSite=${c.sameSite}` : 'no SameSite'})`)
    .join(', ');

/** The session's cookies that go with cross-site requests, or null when SameSite keeps any of them home. */
export function unprotected(cookies: readonly SessionCookie[]): SessionCookie[] | null {
  const session = cookies.filter((c) => !notSession.test(c.name));
  if (session.length === 0 || session.some((c) => c.sameSite && /^(lax|strict)$/i.test(c.sameSite))) {
    return null;
  }
  return session;
}

/**
 * Same-origin POST forms of the crawled pages with no anti-forgery token, in a session of cookies that go
 * along with cross-site requests; one finding per form action.
 */
export function csrfFindings(
  pages: readonly Page[],
  origin: string,
  cookies: readonly SessionCookie[],
): Finding[] {
  const exposed = unprotected(cookies);
  if (!exposed) {
    return [];
  }
  const described = describeCookies(exposed);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    if (findings.length >= MAX_CSRF_FINDINGS) {
      break;
    }
    if (!page.facts || page.response.status >= 400 || metaToken.test(page.response.body.slice(0, 200_000))) {
      continue;
    }
    for (const form of page.facts.forms) {
      const key = `${form.action.origin}${form.action.pathname}`;
      if (
        form.method !== 'POST' ||
        form.action.origin !== origin ||
        form.fields.length === 0 ||
        seen.has(key) ||
        harmless(form) ||
        tokenField(form) !== null
      ) {
        continue;
      }
      seen.add(key);
      const fields = form.fields.filter((f, i, all) => all.indexOf(f) === i);
      const hidden = Object.keys(form.hidden ?? {});
      findings.push(
        webappFinding('web.csrf.missing-token', {
          location: key,
          evidence: `POST form on ${page.url.pathname} (fields: ${fields.slice(0, 8).join(', ')}${fields.length > 8 ? '…' : ''}) carries no anti-forgery token${hidden.length ? ` (its hidden fields ${hidden.slice(0, 4).join(', ')} are not one)` : ''}, and the session's cookies go with cross-site requests: ${described}`,
        }),
      );
      if (findings.length >= MAX_CSRF_FINDINGS) {
        break;
      }
    }
  }
  return findings;
}

/** SameSite of a cookie as its Set-Cookie line gives it. */
function sameSiteOf(line: string): { name: string; sameSite: string | null } {
  const [pair = '', ...attrs] = line.split(';');
  const attr = attrs.map((a) => a.trim()).find((a) => /^samesite\s*=/i.test(a));
  return { name: pair.split('=')[0]!.trim(), sameSite: attr ? attr.split('=')[1]!.trim() : null };
}

/**
 * The session's cookies (by name) with the SameSite their last Set-Cookie in the crawled answers gave
 * them (the login's answers are among the pages), or the jar's own record of it. A cookie whose Set-Cookie
 * was never seen (set by a script) is left out: nothing says how it is sent.
 */
export function sessionCookies(
  names: readonly { name: string; sameSite?: string | undefined }[],
  pages: readonly Page[],
): SessionCookie[] {
  const seen = new Map<string, string | null>();
  for (const page of pages) {
    for (const { line } of cookiesSet(page.response)) {
      const cookie = sameSiteOf(line);
      seen.set(cookie.name, cookie.sameSite);
    }
  }
  return names.flatMap(({ name, sameSite }) => {
    if (seen.has(name)) {
      return [{ name, sameSite: seen.get(name) ?? null }];
    }
    // tough-cookie keeps what a Set-Cookie said ('strict', 'lax', 'none'); a cookie adopted from a
    // Cookie header has no attribute at all, and is not judged.
    return sameSite ? [{ name, sameSite }] : [];
  });
}

/** The cookies of the scan's session as sessionCookies judges them, from its jar and the crawled answers. */
export function sessionCookiesOf(session: ScanSession, start: URL, pages: readonly Page[]): SessionCookie[] {
  const jar = session.jar
    .getCookiesSync(start.href)
    .map((c) => ({ name: c.key, sameSite: c.sameSite ?? undefined }));
  return sessionCookies(jar, pages);
}
