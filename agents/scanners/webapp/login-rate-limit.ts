// Missing rate limits on login forms: a handful of failed logins, bounded, for an account that does not
// exist (a made-up name under example.invalid), so nobody is ever locked out. A login form is a POST form of
// the crawled pages to an action named for a login (never a sign-up), with one password field. What counts as a limit: a 429 or 503, a
// Retry-After or RateLimit-* header (express-rate-limit, @fastify/rate-limit send them from the first
// request), a CAPTCHA or "too many attempts" in the answer, or answers that slow down markedly. A form whose
// first answer refuses the request itself (400, 403, 419, 422: a CSRF token bound to a cookie, a missing
// field) cannot be judged and is left alone. Active: failed logins change nothing but counters.
// Password-reset request forms get the same attempts and the same judgement (resetRateLimitFindings). The
// JSON logins and resets of single-page apps (the endpoints the app itself posted JSON to, seen by the
// rendered crawl) are chosen by the same words and fields, and sent the app's own body with the account,
// password and address replaced. A logged-in scan tries its own login form too (read from the login page when
// the crawl did not show it): the registry runs this check last, so that a limit per client address the
// attempts trip cannot refuse a later renewal of the scan's session.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import type { Endpoint } from './crawl.ts';
import type { HtmlForm } from './html.ts';
import { isHtml, parseHtml } from './html.ts';
import { passwordField } from './parameter-probes.ts';
import { webappFinding } from './rules.ts';
import { antiForgeryField } from './csrf.ts';

/** Attempts per form (failed logins, reset requests): enough to pass the usual limits of 3 to 5, few enough to be harmless. */
export const LOGIN_ATTEMPTS = 8;
/** Logins (forms and JSON endpoints together) tried per scan, and as many resets. */
const MAX_FORMS = 3;
const refusedFirst = new Set([400, 403, 405, 419, 422]);
const throttleText =
  /too many (?:requests|attempts|login|failed)|try again (?:later|in \d)|rate limit|captcha|recaptcha|hcaptcha|temporarily (?:locked|blocked)|account (?:is )?locked/i;

/** An action that names a login, and none that names an account being made or changed. */
const loginAction = /log-?in|sign-?in|logon|session|auth/i;
const notLogin = /regist|sign-?up|join|reset|forgot|change|new|create|invite|account\/?$/i;

/**
 * The login forms of the crawled pages: POST to an action named for a login, one password field, a text
 * field beside it. Guard: a sign-up form with one password field would make an account on every try; its
 * action must name a login, never a registration.
 */
export function loginForms(forms: readonly HtmlForm[]): HtmlForm[] {
  const seen = new Set<string>();
  return forms.filter((form) => {
    const key = `${form.action.origin}${form.action.pathname}`;
    const ok =
      form.method === 'POST' &&
      loginAction.test(form.action.pathname) &&
      !notLogin.test(form.action.pathname) &&
      form.passwords?.length === 1 &&
      form.fields.some((f) => f !== form.passwords![0] && !(f in (form.hidden ?? {}))) &&
      !seen.has(key);
    seen.add(key);
    return ok;
  });
}

/** A sign of throttling in one answer, or null. */
export function throttleSign(response: HttpResponse): string | null {
  if (response.status === 429 || response.status === 503) {
    return `HTTP ${response.status}`;
  }
  for (const name of [
    'retry-after',
    'ratelimit-limit',
    'ratelimit',
    'x-ratelimit-limit',
    'ratelimit-policy',
  ]) {
    const value = header(response, name);
    if (value !== undefined) {
      return `${name}: ${value.slice(0, 60)}`;
    }
  }
  const text = throttleText.exec(response.body.slice(0, 100_000));
  return text ? `"${text[0]}" in the answer` : null;
}

function formLoginBody(form: HtmlForm, user: string, password: string): string {
  const params = new URLSearchParams();
  for (const field of form.fields) {
    const hidden = form.hidden?.[field];
    params.set(
      field,
      hidden !== undefined
        ? hidden
        : field === form.passwords![0]
          ? password
          : /mail|user|login|name|account|id/i.test(field) || !params.has(field)
            ? user
            : 'vigil',
    );
  }
  return params.toString();
}

/** What a run of attempts at one form showed: no limit at all (the answers), or null (a limit, or no judgement). */
interface Unlimited {
  statuses: string;
  first: number;
  last: number;
}

/**
 * Where attempts go: a crawled form's action, or a JSON endpoint the app posted to; the made-up account
 * they are for (an e-mail address under example.invalid), and one attempt's body.
 */
interface AttemptPlace {
  action: URL;
  contentType: string;
  email: string;
  fill: () => string;
}

const madeUp = () => `vigil-nobody-${randomBytes(4).toString('hex')}`;

/** A place for a form or a JSON endpoint, with a made-up account of its own (its name and address). */
function attemptPlace(
  at: { form: HtmlForm } | { endpoint: Endpoint },
  fill: (account: { name: string; email: string }) => string,
): AttemptPlace {
  const name = madeUp();
  const account = { name, email: `${name}@example.invalid` };
  return {
    ...('form' in at
      ? { action: at.form.action, contentType: 'application/x-www-form-urlencoded' }
      : { action: at.endpoint.url, contentType: 'application/json' }),
    email: account.email,
    fill: () => fill(account),
  };
}

const where = (action: URL) => `${action.origin}${action.pathname}`;

/**
 * Sends one place `ATTEMPTS` times, without the session, and judges whether anything limited it. Shared by
 * the login and the password-reset checks: one way to tell a limit.
 */
async function unlimited(client: HttpClient, place: AttemptPlace): Promise<Unlimited | null> {
  const answers: { status: number; ms: number }[] = [];
  for (let i = 0; i < LOGIN_ATTEMPTS && !client.signal?.aborted; i += 1) {
    const started = performance.now();
    const response = await client.tryRequest(place.action, {
      method: 'POST',
      body: place.fill(),
      headers: { 'content-type': place.contentType },
      followRedirects: 'none',
      // Guard: never in the scan's session, and never a login of the scan's own.
      anonymous: true,
    });
    if (!response || (i === 0 && refusedFirst.has(response.status))) {
      return null;
    }
    answers.push({ status: response.status, ms: performance.now() - started });
    if (throttleSign(response)) {
      return null;
    }
  }
  if (answers.length < LOGIN_ATTEMPTS) {
    return null;
  }
  // Guard: answers that slow down markedly are a limit too (a progressive delay).
  const first = answers[0]!.ms;
  const last = answers[answers.length - 1]!.ms;
  if (last > first * 3 + 1000) {
    return null;
  }
  return { statuses: [...new Set(answers.map((a) => a.status))].join('/'), first, last };
}

/** The fields of a JSON endpoint's body that carry a password, and those that name the account. */
const passwordsOf = (endpoint: Endpoint) => endpoint.params.filter((p) => passwordField.test(p));
const identitiesOf = (endpoint: Endpoint) =>
  endpoint.params.filter((p) => identity.test(p) && !passwordField.test(p));

/** One per action: a form and a JSON endpoint at the same place are the same login. */
function oncePerAction<T>(items: readonly T[], action: (item: T) => URL): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = where(action(item));
    const first = !seen.has(key);
    seen.add(key);
    return first;
  });
}

/** A field that repeats another (a sign-up's "repeat password"): never in a login. */
const confirmation = /repeat|confirm|again|retype/i;

/**
 * The JSON logins the app posted to: POST with a JSON body, a path named for a login (never a sign-up),
 * exactly one password field, none repeating it, and a field naming the account.
 */
export function jsonLogins(endpoints: readonly Endpoint[]): Endpoint[] {
  return oncePerAction(
    endpoints.filter(
      (e) =>
        e.method === 'POST' &&
        e.json !== undefined &&
        loginAction.test(e.url.pathname) &&
        !notLogin.test(e.url.pathname) &&
        passwordsOf(e).length === 1 &&
        !e.params.some((p) => confirmation.test(p)) &&
        identitiesOf(e).length > 0,
    ),
    (e) => e.url,
  );
}

/** The app's own JSON body with the account and the password replaced; its other fields as it sent them. */
function jsonLoginBody(endpoint: Endpoint, user: string, password: string): string {
  const body: Record<string, unknown> = { ...endpoint.json };
  for (const field of identitiesOf(endpoint)) {
    body[field] = user;
  }
  body[passwordsOf(endpoint)[0]!] = password;
  return JSON.stringify(body);
}

/**
 * The scan's own login form, read from its login page without the session, when no crawled page showed it
 * (a logged-in crawl does not open the login page again). Only a form with both of the login's fields.
 */
export async function ownLoginForms(
  client: HttpClient,
  login: TargetLogin | undefined,
  crawled: readonly HtmlForm[],
): Promise<HtmlForm[]> {
  if (login?.kind !== 'form') {
    return [];
  }
  const own = (form: HtmlForm) =>
    form.fields.includes(login.username_field) && form.fields.includes(login.password_field);
  if (crawled.some(own)) {
    return [];
  }
  const url = new URL(login.login_url);
  const page = await client.tryRequest(url, { followRedirects: 'same-origin', anonymous: true });
  if (!page || page.status >= 400 || !isHtml(header(page, 'content-type'), page.body)) {
    return [];
  }
  return parseHtml(page.body, new URL(page.url)).forms.filter(own);
}

/** Tries each login (form or JSON) with failed logins; a finding for each that showed no limit at all. */
export async function loginRateLimitFindings(
  client: HttpClient,
  forms: readonly HtmlForm[],
  endpoints: readonly Endpoint[],
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const wrong = () => `wrong-${randomBytes(6).toString('hex')}`;
  const places = oncePerAction(
    [
      ...loginForms(forms).map((form) =>
        attemptPlace({ form }, ({ email }) => formLoginBody(form, email, wrong())),
      ),
      ...jsonLogins(endpoints).map((endpoint) =>
        attemptPlace({ endpoint }, ({ email }) => jsonLoginBody(endpoint, email, wrong())),
      ),
    ],
    (place) => place.action,
  ).slice(0, MAX_FORMS);
  let done = 0;
  for (const place of places) {
    const seen = await unlimited(client, place);
    tick(++done, places.length);
    if (seen) {
      findings.push(
        webappFinding('web.auth.no-login-rate-limit', {
          location: where(place.action),
          evidence: `${LOGIN_ATTEMPTS} failed logins in a row for a made-up account were each answered HTTP ${seen.statuses}, with no 429, Retry-After or RateLimit header, CAPTCHA or slow-down (first ${Math.round(seen.first)} ms, last ${Math.round(seen.last)} ms)`,
        }),
      );
    }
  }
  return findings;
}

/** A password reset named in the action or a field's name. */
const resetWords = /forgot|reset|recover/i;
/** An action for making, joining or changing an account, never a reset request. */
const notReset = /regist|sign-?up|join|invite|change|subscribe|newsletter/i;
/** A field for the account's e-mail address or name. */
const identity = /mail|user|login|name|account|ident/i;

/**
 * The password-reset request forms of the crawled pages: POST, a reset named in the action or a field's name,
 * no password field at all, and exactly one visible field for the e-mail address or user name (beside it at
 * most one other visible field, a named submit button). Guard: a login, a sign-up or a change of password
 * always has a password field, and an action naming a sign-up or a change is never taken.
 */
export function resetForms(forms: readonly HtmlForm[]): HtmlForm[] {
  const seen = new Set<string>();
  return forms.filter((form) => {
    const key = `${form.action.origin}${form.action.pathname}`;
    const visible = form.fields.filter((f) => !(f in (form.hidden ?? {})));
    const ok =
      form.method === 'POST' &&
      (resetWords.test(form.action.pathname) || form.fields.some((f) => resetWords.test(f))) &&
      !notReset.test(form.action.pathname) &&
      (form.passwords ?? []).length === 0 &&
      visible.length <= 2 &&
      visible.filter((f) => identity.test(f)).length === 1 &&
      !seen.has(key);
    seen.add(key);
    return ok;
  });
}

function resetBody(form: HtmlForm, email: string, name: string): string {
  const params = new URLSearchParams();
  for (const field of form.fields) {
    const hidden = form.hidden?.[field];
    params.set(
      field,
      hidden !== undefined ? hidden : identity.test(field) ? (/mail/i.test(field) ? email : name) : 'vigil',
    );
  }
  return params.toString();
}

/**
 * The JSON password-reset requests the app posted: POST with a JSON body, a reset named in the path or a
 * field, no password field, exactly one field for the address or name and at most one other (beside any
 * anti-forgery token). The same guards as the forms: never a login, a sign-up or a change of password.
 */
export function jsonResets(endpoints: readonly Endpoint[]): Endpoint[] {
  return oncePerAction(
    endpoints.filter((e) => {
      const own = e.params.filter((p) => !antiForgeryField.test(p));
      return (
        e.method === 'POST' &&
        e.json !== undefined &&
        (resetWords.test(e.url.pathname) || e.params.some((p) => resetWords.test(p))) &&
        !notReset.test(e.url.pathname) &&
        passwordsOf(e).length === 0 &&
        own.length <= 2 &&
        own.filter((p) => identity.test(p)).length === 1
      );
    }),
    (e) => e.url,
  );
}

function jsonResetBody(endpoint: Endpoint, email: string, name: string): string {
  const body: Record<string, unknown> = { ...endpoint.json };
  for (const field of identitiesOf(endpoint)) {
    body[field] = /mail/i.test(field) ? email : name;
  }
  return JSON.stringify(body);
}

/**
 * Tries each password-reset form with the same made-up account `LOGIN_ATTEMPTS` times; a finding for each
 * that showed no limit at all. Intrusive: an app may write a reset token or queue an e-mail per request, for
 * an address that cannot exist (example.invalid is reserved and never resolves).
 */
export async function resetRateLimitFindings(
  client: HttpClient,
  forms: readonly HtmlForm[],
  endpoints: readonly Endpoint[],
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const places = oncePerAction(
    [
      ...resetForms(forms).map((form) =>
        attemptPlace({ form }, ({ name, email }) => resetBody(form, email, name)),
      ),
      ...jsonResets(endpoints).map((endpoint) =>
        attemptPlace({ endpoint }, ({ name, email }) => jsonResetBody(endpoint, email, name)),
      ),
    ],
    (place) => place.action,
  ).slice(0, MAX_FORMS);
  let done = 0;
  for (const place of places) {
    const seen = await unlimited(client, place);
    tick(++done, places.length);
    if (seen) {
      findings.push(
        webappFinding('web.auth.no-reset-rate-limit', {
          location: where(place.action),
          evidence: `${LOGIN_ATTEMPTS} password-reset requests in a row for a made-up account were each answered HTTP ${seen.statuses}, with no 429, Retry-After or RateLimit header, CAPTCHA or slow-down (first ${Math.round(seen.first)} ms, last ${Math.round(seen.last)} ms); any reset token or mail they caused is for ${place.email}, an address that cannot exist`,
        }),
      );
    }
  }
  return findings;
}
