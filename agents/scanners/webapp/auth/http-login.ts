// Logging in without a browser: the login page's form is read (hidden fields such as CSRF tokens kept),
// the user name and password filled in and the form posted, redirects followed on the target's origin
// with every Set-Cookie kept. For cookie and header logins there is nothing to post: the session is
// only checked. A session counts as working when the logged-in marker shows, or no password field does.
import { Parser } from 'htmlparser2';

import type { TargetLogin } from '../../../../shared/target-login.ts';
import type { HttpClient, HttpResponse } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';
import type { Page } from '../crawl.ts';
import type { LoginDriver, LoginOutcome, ScanSession } from './session.ts';

interface FormInput {
  name: string;
  id: string;
  type: string;
  value: string;
}

interface LoginForm {
  action: string;
  method: string;
  inputs: FormInput[];
}

export function readForms(html: string): LoginForm[] {
  const forms: LoginForm[] = [];
  let current: LoginForm | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'form') {
          current = { action: attrs.action ?? '', method: (attrs.method ?? 'get').toUpperCase(), inputs: [] };
          forms.push(current);
        }
        if (current && (name === 'input' || name === 'select' || name === 'textarea' || name === 'button')) {
          if (attrs.name && name !== 'button') {
            current.inputs.push({
              name: attrs.name,
              id: attrs.id ?? '',
              type: (attrs.type ?? 'text').toLowerCase(),
              value: attrs.value ?? '',
            });
          }
        }
      },
      onclosetag(name) {
        if (name === 'form') {
          current = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return forms;
}

const matches = (input: FormInput, ref: string) =>
  input.name === ref || (input.id !== '' && input.id === ref);
const hasPasswordField = (html: string) => /<input[^>]+type\s*=\s*["']?password/i.test(html);

/**
 * Whether a page answered in the session shows a working login. The login page's own address counts only
 * while it still shows the password field: some apps answer their home page there once logged in
 * (express-session's README puts the form at "/").
 */
export function looksLoggedIn(
  response: HttpResponse,
  marker: string | undefined,
  loginPath: string | null,
): boolean {
  const password = hasPasswordField(response.body);
  if (response.status >= 400 || (loginPath && new URL(response.url).pathname === loginPath && password)) {
    return false;
  }
  return marker ? response.body.includes(marker) : !password;
}

export class HttpLogin implements LoginDriver {
  readonly renewable: boolean;
  /** The first login's answers (the form post sets the session cookie), as pages of the crawl. */
  readonly pages: Page[] = [];
  /** Where the session is checked: the page the login landed on, or the start page. */
  private check: URL;

  get landing(): URL {
    return this.check;
  }

  constructor(
    private readonly client: HttpClient,
    private readonly login: TargetLogin,
    start: URL,
  ) {
    this.renewable = login.kind === 'form';
    this.check = start;
  }

  async alive(session: ScanSession): Promise<boolean> {
    const response = await this.send(session, this.check, 'GET');
    return response !== null && looksLoggedIn(response, this.login.logged_in_marker, session.loginPath);
  }

  async logIn(session: ScanSession): Promise<LoginOutcome> {
    if (this.login.kind !== 'form') {
      if (!this.login.logged_in_marker) {
        return { ok: true, detail: `${this.login.kind} login (not checked: no logged-in marker given)` };
      }
      return (await this.alive(session))
        ? { ok: true, detail: `${this.login.kind} login; the marker shows on ${this.check.pathname}` }
        : { ok: false, reason: `the marker "${this.login.logged_in_marker}" is not on ${this.check.href}` };
    }
    const login = this.login;
    const page = await this.send(session, new URL(login.login_url), 'GET');
    if (!page || page.status >= 400) {
      return { ok: false, reason: `the login page answered ${page ? `HTTP ${page.status}` : 'nothing'}` };
    }
    const form = readForms(page.body).find((f) => f.inputs.some((i) => matches(i, login.password_field)));
    if (!form) {
      return {
        ok: false,
        reason: `no form with the field "${login.password_field}" on the login page (a JavaScript login needs the browser crawl)`,
      };
    }
    const user = form.inputs.find((i) => matches(i, login.username_field));
    const password = form.inputs.find((i) => matches(i, login.password_field))!;
    if (!user) {
      return { ok: false, reason: `no field "${login.username_field}" in the login form` };
    }
    const fields = new URLSearchParams();
    for (const input of form.inputs) {
      // Guard: unticked boxes and other buttons are not sent, as a browser would not send them.
      if (['checkbox', 'radio', 'submit', 'image', 'reset', 'file'].includes(input.type)) {
        continue;
      }
      fields.append(
        input.name,
        input === user ? login.username : input === password ? login.password : input.value,
      );
    }
    const action = new URL(form.action || page.url, page.url);
    if (action.origin !== session.origin) {
      return { ok: false, reason: `the login form posts to another origin (${action.origin})` };
    }
    const landed =
      form.method === 'POST'
        ? await this.send(session, action, 'POST', fields.toString())
        : await this.send(session, new URL(`${action.origin}${action.pathname}?${fields.toString()}`), 'GET');
    if (!landed) {
      return { ok: false, reason: 'the login form post got no answer' };
    }
    if (!looksLoggedIn(landed, login.logged_in_marker, session.loginPath)) {
      return {
        ok: false,
        reason: `the login did not take (HTTP ${landed.status} at ${new URL(landed.url).pathname}${login.logged_in_marker ? ', marker not shown' : ', the password field is still there'})`,
      };
    }
    this.check = new URL(landed.url);
    return {
      ok: true,
      detail: `form login at ${new URL(login.login_url).pathname}, landed on ${this.check.pathname}`,
    };
  }

  /** One request with the jar's cookies, following same-origin redirects and keeping each hop's cookies. */
  private async send(
    session: ScanSession,
    url: URL,
    method: string,
    body?: string,
  ): Promise<HttpResponse | null> {
    let next = url;
    let verb = method;
    let payload = body;
    for (let hop = 0; hop < 6; hop += 1) {
      const response = await this.client.tryRequest(next, {
        method: verb,
        anonymous: true,
        headers: {
          ...session.headers(next),
          ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(payload === undefined ? {} : { body: payload }),
      });
      if (!response) {
        return null;
      }
      session.keepCookies(next, response);
      if (session.renewals === 0 && session.status !== 'logged-in' && verb === 'POST') {
        this.pages.push({ url: next, response, facts: null, depth: 1 });
      }
      const location = header(response, 'location');
      if (response.status < 300 || response.status > 399 || !location) {
        return response;
      }
      const target = new URL(location, next);
      if (target.origin !== session.origin) {
        return response;
      }
      // A redirect after a POST is fetched with GET (303, and what browsers do for 301/302).
      if (response.status !== 307 && response.status !== 308) {
        verb = 'GET';
        payload = undefined;
      }
      next = target;
    }
    return null;
  }
}
