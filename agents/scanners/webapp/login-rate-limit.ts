// Missing rate limits on login forms: a handful of failed logins, bounded, for an account that does not
// exist (a made-up name under example.invalid), so nobody is ever locked out. A login form is a POST form of
// the crawled pages to an action named for a login (never a sign-up), with one password field. What counts as a limit: a 429 or 503, a
// Retry-After or RateLimit-* header (express-rate-limit, @fastify/rate-limit send them from the first
// request), a CAPTCHA or "too many attempts" in the answer, or answers that slow down markedly. A form whose
// first answer refuses the request itself (400, 403, 419, 422: a CSRF token bound to a cookie, a missing
// field) cannot be judged and is left alone. Active: failed logins change nothing but counters.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import type { HtmlForm } from './html.ts';
import { webappFinding } from './rules.ts';

/** Failed logins per form: enough to pass the usual limits of 3 to 5, few enough to be harmless. */
export const LOGIN_ATTEMPTS = 8;
/** Login forms tried per scan. */
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

function body(form: HtmlForm, user: string, password: string): string {
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

/** Tries each login form with failed logins; a finding for each that showed no limit at all. */
export async function loginRateLimitFindings(
  client: HttpClient,
  forms: readonly HtmlForm[],
  tick: (done: number, total: number) => void,
  skip: (form: HtmlForm) => boolean = () => false,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const candidates = loginForms(forms)
    .filter((form) => !skip(form))
    .slice(0, MAX_FORMS);
  let done = 0;
  for (const form of candidates) {
    const user = `vigil-nobody-${randomBytes(4).toString('hex')}@example.invalid`;
    const answers: { status: number; ms: number }[] = [];
    let sign: string | null = null;
    let judged = true;
    for (let i = 0; i < LOGIN_ATTEMPTS && !client.signal?.aborted; i += 1) {
      const started = performance.now();
      const response = await client.tryRequest(form.action, {
        method: 'POST',
        body: body(form, user, `wrong-${randomBytes(6).toString('hex')}`),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        followRedirects: 'none',
        // Guard: never in the scan's session, and never a login of the scan's own.
        anonymous: true,
      });
      if (!response) {
        judged = false;
        break;
      }
      if (i === 0 && refusedFirst.has(response.status)) {
        judged = false;
        break;
      }
      answers.push({ status: response.status, ms: performance.now() - started });
      sign = throttleSign(response);
      if (sign) {
        break;
      }
    }
    tick(++done, candidates.length);
    if (!judged || sign || answers.length < LOGIN_ATTEMPTS) {
      continue;
    }
    // Guard: answers that slow down markedly are a limit too (a progressive delay).
    const first = answers[0]!.ms;
    const last = answers[answers.length - 1]!.ms;
    if (last > first * 3 + 1000) {
      continue;
    }
    const statuses = [...new Set(answers.map((a) => a.status))].join('/');
    findings.push(
      webappFinding('web.auth.no-login-rate-limit', {
        location: `${form.action.origin}${form.action.pathname}`,
        evidence: `${LOGIN_ATTEMPTS} failed logins in a row for a made-up account were each answered HTTP ${statuses}, with no 429, Retry-After or RateLimit header, CAPTCHA or slow-down (first ${Math.round(first)} ms, last ${Math.round(last)} ms)`,
      }),
    );
  }
  return findings;
}
