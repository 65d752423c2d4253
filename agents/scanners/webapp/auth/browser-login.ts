// Logging in through the browser, as a person would: the login page is rendered, the fields filled and
// the form submitted by the page's own JavaScript (single-page apps post JSON and keep a token in web
// storage; only the browser can do that for them). Afterwards the credentials the app sends (its cookies,
// its Authorization header) are handed to the session, so the scanner's own requests carry them too.
import type { ScanBrowserTab } from '../../../../shared/scan-browser.ts';
import type { TargetLogin } from '../../../../shared/target-login.ts';
import { apiCallOf } from '../browser/api-calls.ts';
import { isBrowserEnd, sleep } from '../browser/bounded.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import type { BrowserRouter, Exchange } from '../browser/router.ts';
import type { Page } from '../crawl.ts';
import { loginScript, snapshotScript } from '../browser/page-scripts.ts';
import type { PageSnapshot } from '../browser/page-scripts.ts';
import type { LoginDriver, LoginOutcome, ScanSession } from './session.ts';

export interface BrowserLoginTiming {
  navigationMs: number;
  settleMs: number;
  /** A script run in the page answers within this, or the page is cut (the engine's default otherwise). */
  evaluateMs?: number;
}

export class BrowserLogin implements LoginDriver {
  readonly renewable: boolean;
  /** The API calls of the first login (the login request itself, what the app loads next). */
  readonly calls: ApiCall[] = [];
  /**
   * The first login's page loads that set cookies: a form posted without scripts is a navigation, and its
   * answer (a redirect, not followed) is where the session cookie and its attributes are set.
   */
  private readonly documents: Page[] = [];
  private landingUrl: URL;

  constructor(
    readonly tab: ScanBrowserTab,
    private readonly router: BrowserRouter,
    private readonly login: TargetLogin,
    start: URL,
    private readonly timing: BrowserLoginTiming,
    private readonly signal?: AbortSignal,
  ) {
    this.renewable = login.kind === 'form';
    this.landingUrl = start;
  }

  /** Whether the page in the tab shows a working session. */
  private loggedIn(view: PageSnapshot, session: ScanSession): boolean {
    if (this.login.logged_in_marker) {
      return view.text.includes(this.login.logged_in_marker);
    }
    return !view.passwordField && !session.isLoginPage(new URL(view.href));
  }

  private async view(url: string): Promise<PageSnapshot | null> {
    try {
      await this.router.visit(this.tab, url, this.timing.navigationMs);
    } catch (error) {
      // The page was cut short or the browser is gone (the browser reported why): nothing to see.
      if (isBrowserEnd(error)) {
        return null;
      }
      throw error;
    }
    await this.router.settled(300, this.timing.settleMs, this.signal);
    return this.read();
  }

  private async read(): Promise<PageSnapshot | null> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        return await this.tab.evaluate<PageSnapshot>(snapshotScript, this.timing.evaluateMs);
      } catch (error) {
        if (isBrowserEnd(error)) {
          return null;
        }
        // The page was navigating (the login redirected): read it again once it has settled.
        await this.router.settled(200, this.timing.settleMs, this.signal);
      }
    }
    return null;
  }

  async alive(session: ScanSession): Promise<boolean> {
    const view = await this.view(this.landingUrl.href);
    this.router.take();
    return view !== null && this.loggedIn(view, session);
  }

  /** The app's credentials, as its latest requests sent them, for the scanner's own requests. */
  private adopt(session: ScanSession): void {
    if (this.router.lastSeen.cookie) {
      session.adoptCookieHeader(this.router.lastSeen.cookie);
    }
    if (this.router.lastSeen.authorization) {
      session.adoptHeader('authorization', this.router.lastSeen.authorization);
    }
  }

  async logIn(session: ScanSession): Promise<LoginOutcome> {
    const login = this.login;
    if (login.kind !== 'form') {
      const view = await this.view(this.landingUrl.href);
      this.router.take();
      if (!login.logged_in_marker) {
        return { ok: true, detail: `${login.kind} login (not checked: no logged-in marker given)` };
      }
      return view && this.loggedIn(view, session)
        ? { ok: true, detail: `${login.kind} login; the marker shows on ${this.landingUrl.pathname}` }
        : { ok: false, reason: `the marker "${login.logged_in_marker}" is not on ${this.landingUrl.href}` };
    }
    const page = await this.view(login.login_url);
    if (!page) {
      return { ok: false, reason: 'the login page did not render' };
    }
    const fields = [
      { selector: login.username_field, value: login.username },
      { selector: login.password_field, value: login.password },
    ];
    const filled = await this.tab
      .evaluate<{ ok: boolean; reason: string }>(
        loginScript(fields, login.submit ?? null),
        this.timing.evaluateMs,
      )
      .catch((error: unknown) => ({ ok: false, reason: String(error) }));
    if (!filled.ok) {
      this.router.take();
      return { ok: false, reason: filled.reason };
    }
    // The app may send its login a moment after the click (over the quiet wait on a loaded host): the page
    // is read again until it shows the session, the login is refused, or the settle time has passed.
    const until = Date.now() + this.timing.settleMs;
    const exchanges: Exchange[] = [];
    let after: PageSnapshot | null;
    let refused: Exchange | undefined;
    for (;;) {
      await this.router.settled(500, Math.max(0, until - Date.now()), this.signal);
      after = await this.read();
      exchanges.push(...this.router.take());
      refused = exchanges.find(
        (e) => e.request.method !== 'GET' && e.response && [401, 403].includes(e.response.status),
      );
      if (
        (after && this.loggedIn(after, session)) ||
        refused ||
        Date.now() >= until ||
        this.signal?.aborted
      ) {
        break;
      }
      await sleep(250);
    }
    if (session.renewals === 0) {
      this.calls.push(
        ...exchanges.map((e) => apiCallOf(e, 'session')).filter((c): c is ApiCall => c !== null),
      );
      for (const { request, response } of exchanges) {
        if (request.kind === 'document' && response?.headers['set-cookie']?.length) {
          this.documents.push({ url: new URL(response.url), response, facts: null, depth: 1 });
        }
      }
    }
    if (!after || !this.loggedIn(after, session)) {
      return {
        ok: false,
        reason: refused
          ? `the login was refused (HTTP ${refused.response!.status} from ${new URL(refused.request.url).pathname})`
          : `the login did not take (${login.logged_in_marker ? 'marker not shown' : 'the password field is still there'})`,
      };
    }
    const landed = new URL(after.href);
    this.landingUrl = session.isLoginPage(landed) ? this.landingUrl : landed;
    this.adopt(session);
    return {
      ok: true,
      detail: `form login in the browser at ${new URL(login.login_url).pathname}${new URL(login.login_url).hash}, landed on ${landed.pathname}${landed.hash}`,
    };
  }

  /** Where the login landed (the start page when it stayed on the login page's URL). */
  get landing(): URL {
    return this.landingUrl;
  }

  /** The login's API answers and cookie-setting page loads, as pages of the crawl (their headers and cookies are checked too). */
  get pages(): Page[] {
    return [
      ...this.calls.map((call) => ({ url: call.url, response: call.response, facts: null, depth: 1 })),
      ...this.documents,
    ];
  }

  /** After the crawl: the credentials the app used last (a token it refreshed, say). */
  refresh(session: ScanSession): void {
    this.adopt(session);
  }
}
