// An authenticated scan's session, as every request of the scanner carries it (HttpClient's session hook):
// the target's cookies (a jar: Set-Cookie answers keep it current) and any login header, on the target's
// origin only. It notices a lost session (401, or a redirect to the login page) and, after checking that
// the session is really gone (a 401 can be an endpoint's own answer), logs in again through its driver,
// at most a few times per scan. Logout links are refused whatever asks for them.
import { CookieJar } from 'tough-cookie';

import type { TargetLogin } from '../../../../shared/target-login.ts';
import type { LoginReport } from '../../core/context.ts';
import type { HttpResponse, HttpSession } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';
import { routeKey } from '../browser/crawl.ts';
import { isDestructive, isLogout } from './logout.ts';

export type LoginOutcome = { ok: true; detail: string } | { ok: false; reason: string };

/** How a session is (re)established and checked: through the browser, plain HTTP, or not at all. */
export interface LoginDriver {
  /** False for a cookie or header login: it can be checked, not renewed. */
  readonly renewable: boolean;
  logIn(session: ScanSession): Promise<LoginOutcome>;
  /** Whether the session still works (the logged-in marker is there, the login page is not). */
  alive(session: ScanSession): Promise<boolean>;
}

/** Headers that cannot identify anyone: what the scanner's own anonymous requests and WebDAV probes send. */
const plainHeaders = new Set([
  'user-agent',
  'accept',
  'accept-language',
  'content-type',
  'content-length',
  'destination',
  'depth',
  'overwrite',
  'range',
]);
/** Renewals per scan: a login that keeps failing must not hammer the target's login form. */
const maxRenewals = 3;
/** After a check found the session alive, 401s within this time are taken as the endpoints' own. */
const aliveForMs = 2000;

export class ScanSession implements HttpSession {
  readonly jar = new CookieJar();
  private readonly extra: Record<string, string> = {};
  renewals = 0;
  status: LoginReport['status'] = 'failed';
  detail = 'not logged in yet';
  private renewing: Promise<boolean> | null = null;
  private aliveAt = 0;

  constructor(
    readonly login: TargetLogin,
    readonly origin: string,
    private readonly driver: LoginDriver,
  ) {
    if (login.kind === 'cookie') {
      this.adoptCookieHeader(login.cookie);
    }
    if (login.kind === 'header') {
      this.extra[login.header_name.toLowerCase()] = login.header_value;
    }
  }

  get loginPath(): string | null {
    return this.login.kind === 'form' ? new URL(this.login.login_url).pathname : null;
  }

  /** Whether `url` is the login page (its path, and its client-side route for hash-routed apps). */
  isLoginPage(url: URL): boolean {
    if (this.login.kind !== 'form') {
      return false;
    }
    const page = (u: URL) => {
      const key = new URL(routeKey(u));
      return `${key.origin}${key.pathname}${key.hash.split('?')[0]}`;
    };
    return page(url) === page(new URL(this.login.login_url));
  }

  /** Cookies as a Cookie header carries them (what the browser sent), into the jar for the origin. */
  adoptCookieHeader(cookieHeader: string): void {
    for (const pair of cookieHeader.split(';')) {
      if (pair.includes('=')) {
        this.jar.setCookieSync(`${pair.trim()}; Path=/`, `${this.origin}/`, { ignoreError: true });
      }
    }
  }

  /** A header the app itself sends with its API calls once logged in (a bearer token, say). */
  adoptHeader(name: string, value: string): void {
    this.extra[name.toLowerCase()] = value;
  }

  /** Set-Cookie lines of a response to `url`, into the jar. */
  keepCookies(url: URL, response: HttpResponse): void {
    for (const line of ([] as string[]).concat(response.headers['set-cookie'] ?? [])) {
      this.jar.setCookieSync(line, url.href, { ignoreError: true });
    }
  }

  headers(url: URL): Record<string, string> {
    if (url.origin !== this.origin) {
      return {};
    }
    const cookie = this.jar.getCookieStringSync(url.href);
    return { ...(cookie ? { cookie } : {}), ...this.extra };
  }

  refuses(url: URL, method: string, headers: Record<string, string>): string | null {
    if (isLogout(url, method)) {
      return 'a logout link: an authenticated scan never ends its own session';
    }
    // Guard: logged in, a probe of a "delete" form would delete the customer's own data. Sent with no
    // credential at all (a write probe removing the file it made as an anonymous visitor), it acts for nobody.
    return url.origin === this.origin && isDestructive(url, method) && this.carriesCredentials(headers)
      ? 'a destructive action: an authenticated scan never deletes what the account holds'
      : null;
  }

  /**
   * Whether a request with these headers could act for someone. Only a request with nothing but plain
   * headers is taken as anonymous: an app may carry its token in a header of its own (X-Access-Token…).
   */
  private carriesCredentials(headers: Record<string, string>): boolean {
    return Object.keys(headers).some((name) => !plainHeaders.has(name.toLowerCase()));
  }

  /** A 401, or a redirect to the login page: the signs of a session that ended. */
  looksLost(url: URL, response: HttpResponse): boolean {
    if (url.origin !== this.origin) {
      return false;
    }
    if (response.status === 401) {
      return true;
    }
    const location = header(response, 'location');
    const loginPath = this.loginPath;
    if (loginPath && location && response.status >= 300 && response.status < 400) {
      try {
        const next = new URL(location, url);
        return next.origin === this.origin && next.pathname === loginPath && url.pathname !== loginPath;
      } catch {
        return false;
      }
    }
    return false;
  }

  async renewed(url: URL, response: HttpResponse): Promise<boolean> {
    if (url.origin !== this.origin) {
      return false;
    }
    this.keepCookies(url, response);
    if (!this.looksLost(url, response)) {
      return false;
    }
    return this.renew();
  }

  /**
   * Logs in again if the session is really gone; concurrent callers share one attempt and all send their
   * request again in the new session. (Drivers send their own requests `anonymous`, with the session's
   * headers given explicitly, so that they never wait for the renewal they are part of.)
   */
  renew(): Promise<boolean> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<boolean> {
    if (this.status !== 'logged-in') {
      return false;
    }
    // Guard: a 401 that an endpoint gives by design must not cost a check per request.
    if (Date.now() - this.aliveAt < aliveForMs) {
      return false;
    }
    if (await this.driver.alive(this)) {
      this.aliveAt = Date.now();
      return false;
    }
    if (!this.driver.renewable) {
      this.status = 'expired';
      this.detail = `the ${this.login.kind} no longer logs in (it expired during the scan): save a fresh one`;
      return false;
    }
    if (this.renewals >= maxRenewals) {
      this.status = 'expired';
      this.detail = `the session was lost again after ${maxRenewals} renewals`;
      return false;
    }
    this.renewals += 1;
    const outcome = await this.driver.logIn(this);
    if (!outcome.ok) {
      this.status = 'failed';
      this.detail = `logging in again failed: ${outcome.reason}`;
    }
    return outcome.ok;
  }

  /** The first login of the scan. */
  async start(): Promise<boolean> {
    const outcome = await this.driver.logIn(this);
    this.status = outcome.ok ? 'logged-in' : 'failed';
    this.detail = outcome.ok ? outcome.detail : outcome.reason;
    return outcome.ok;
  }

  report(): LoginReport {
    return { kind: this.login.kind, status: this.status, detail: this.detail, renewals: this.renewals };
  }
}
