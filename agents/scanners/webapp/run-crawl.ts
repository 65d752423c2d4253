// Which crawl a web scan runs, and the login around it. The HTML crawl always runs first (fast, and all a
// site without scripts needs). When pages run scripts and a browser is at hand (Electron's Chromium in
// the desktop app, a system Chromium through playwright-core in the worker), those pages and the routes
// their JavaScript reveals are rendered too. With a login, the scan then logs in (through the browser, or
// by posting the form) and crawls again in the session. The result says which crawl ran, and why.
import type { Finding } from '../../../shared/findings.ts';
import type { ScanBrowser } from '../../../shared/scan-browser.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { CrawlReport, ScanOptions } from '../core/context.ts';
import type { HttpClient } from '../core/http-client.ts';
import { BrowserLogin } from './auth/browser-login.ts';
import { HttpLogin } from './auth/http-login.ts';
import { ScanSession } from './auth/session.ts';
import type { ApiCall } from './browser/api-calls.ts';
import { browserCrawl, routeKey } from './browser/crawl.ts';
import { domXssFindings } from './browser/dom-xss.ts';
import type { FormBudget } from './browser/form-exercise.ts';
import type { BrowserCrawlResult, SessionCheck, StorageItem } from './browser/crawl.ts';
import { initScript } from './browser/page-scripts.ts';
import { BrowserRouter } from './browser/router.ts';
import { crawl } from './crawl.ts';
import type { Endpoint, Page } from './crawl.ts';

export interface CrawlLimits {
  maxPages: number;
  maxDepth: number;
  /** Wall-clock budget of the rendering (both passes together when there is a login). */
  browserMs: number;
  navigationMs: number;
  settleMs: number;
  /** Forms the logged-out rendering fills and sends (form-exercise.ts), at most this many per page. */
  maxForms: number;
  formsPerPage: number;
  /** Routes with parameters the DOM XSS probe loads again (dom-xss.ts), and its time. */
  domXssRoutes: number;
  domXssMs: number;
}

export interface CrawlInput {
  client: HttpClient;
  start: URL;
  limits: CrawlLimits;
  login?: TargetLogin;
  /** Same-origin URLs the site names without linking (robots.txt, sitemaps), crawled after the start page. */
  seeds?: URL[];
  /** The browser to render with, or the reason there is none. */
  browser: NonNullable<ScanOptions['browser']> | { none: string };
  signal?: AbortSignal;
  tick: (done: number, total: number) => void;
}

export interface CrawlOutcome {
  pages: Page[];
  endpoints: Endpoint[];
  apiCalls: ApiCall[];
  storage: StorageItem[];
  /** What the DOM XSS probe proved, in the rendered routes of the logged-out crawl. */
  domXss: Finding[];
  /** The login session the later phases send their requests in (already set on the client). */
  session: ScanSession | null;
  report: CrawlReport;
  /** Ends the browser (kept until the scan's end when it holds the login, to log in again). */
  close(): Promise<void>;
}

const endpointKey = (e: Endpoint) =>
  `${e.method} ${e.url.origin}${e.url.pathname} ${[...e.params].sort().join(',')}`;

/** Rendered pages replace the HTML crawl's view of the same route; the rest of the HTML crawl stays. */
function merge(
  into: CrawlOutcome,
  crawled: Pick<BrowserCrawlResult, 'pages' | 'endpoints'> & Partial<BrowserCrawlResult>,
  replace: boolean,
): void {
  if (replace) {
    const rendered = new Set(crawled.pages.filter((p) => p.facts).map((p) => routeKey(p.url)));
    // A rendered page keeps the URL the HTML crawl asked for, where its findings are filed.
    const asked = new Map(
      into.pages.flatMap((p) => (p.requested ? [[routeKey(p.url), p.requested] as const] : [])),
    );
    const pages = crawled.pages.map((p) => {
      const requested = p.requested ?? asked.get(routeKey(p.url));
      return requested ? { ...p, requested } : p;
    });
    into.pages = [...pages, ...into.pages.filter((p) => !rendered.has(routeKey(p.url)))];
  } else {
    into.pages.push(...crawled.pages);
  }
  const endpoints = new Map(into.endpoints.map((e) => [endpointKey(e), e]));
  for (const endpoint of crawled.endpoints) {
    endpoints.set(endpointKey(endpoint), endpoint);
  }
  into.endpoints = [...endpoints.values()];
  if (crawled.apiCalls) {
    into.report.rendered += crawled.pages.filter((p) => p.facts).length;
  }
  into.apiCalls.push(...(crawled.apiCalls ?? []));
  into.storage.push(...(crawled.storage ?? []));
}

/** The logged-out crawl's forms; with a login form configured, never that one (by page or by its fields). */
function formBudget(limits: CrawlLimits, login: TargetLogin | undefined): FormBudget {
  const loginPage = login?.kind === 'form' ? routeKey(new URL(login.login_url)) : null;
  const loginFields = login?.kind === 'form' ? [login.username_field, login.password_field] : [];
  return {
    left: limits.maxForms,
    perPage: limits.formsPerPage,
    sent: new Set(),
    skip: (page, form) => routeKey(page) === loginPage || form.keys.some((key) => loginFields.includes(key)),
  };
}

function staticCredentials(login: TargetLogin): Record<string, string> {
  if (login.kind === 'cookie') {
    return { cookie: login.cookie };
  }
  return login.kind === 'header' ? { [login.header_name.toLowerCase()]: login.header_value } : {};
}

export async function runCrawl(input: CrawlInput): Promise<CrawlOutcome> {
  const { client, start, limits, login, signal } = input;
  const html = await crawl(client, start, limits, input.tick, input.seeds);
  const outcome: CrawlOutcome = {
    pages: html.pages,
    endpoints: html.endpoints,
    apiCalls: [],
    storage: [],
    domXss: [],
    session: null,
    report: { engine: 'html', pages: 0, rendered: 0, api_calls: 0 },
    close: () => Promise.resolve(),
  };
  const scripted = html.pages.filter((p) => (p.facts?.scripts.length ?? 0) > 0);
  let browser: ScanBrowser | null = null;
  const router = new BrowserRouter(client, start.origin);
  if ('none' in input.browser) {
    outcome.report.reason = input.browser.none;
  } else if (scripted.length === 0 && !login) {
    outcome.report.reason = 'no crawled page runs a script';
  } else {
    try {
      browser = await input.browser.launch({ route: router.route, initScript });
      outcome.report.engine = browser.engine;
      outcome.report.browser = browser.version;
    } catch (error) {
      outcome.report.reason = `${input.browser.engine} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  }
  outcome.close = async () => {
    await browser?.close();
    browser = null;
  };
  try {
    const timing = { navigationMs: limits.navigationMs, settleMs: limits.settleMs };
    const passMs = login ? limits.browserMs / 2 : limits.browserMs;
    const passLimits = { ...limits, timeMs: passMs };
    if (browser) {
      // Pages whose HTML runs no script render the same in a browser: they are not rendered again.
      const still = new Set(
        html.pages.filter((p) => p.facts && !scripted.includes(p)).map((p) => routeKey(p.url)),
      );
      const anonymous = await browserCrawl({
        browser,
        router,
        start,
        limits: passLimits,
        phase: 'anonymous',
        signal,
        onPage: input.tick,
        seeds: scripted.map((p) => p.url),
        skip: (url) => still.has(routeKey(url)),
        forms: formBudget(limits, login),
      });
      merge(outcome, anonymous, true);
      outcome.domXss = await domXssFindings(
        await browser.newTab(),
        router,
        anonymous.pages,
        anonymous.urlParams,
        {
          maxRoutes: limits.domXssRoutes,
          paramsPerRoute: 6,
          timeMs: limits.domXssMs,
          navigationMs: limits.navigationMs,
          // A payload runs as the route renders: the app's requests settle sooner than a crawl's page.
          settleMs: Math.min(limits.settleMs, 2500),
        },
        signal,
      );
    }
    if (login) {
      await logInAndCrawl(input, outcome, browser, router, passLimits, timing);
    }
  } catch (error) {
    await outcome.close();
    throw error;
  }
  outcome.report.pages = outcome.pages.filter((p) => p.facts).length;
  outcome.report.api_calls = outcome.apiCalls.length;
  // The browser stays only while it holds the login (to log in again if a later phase loses it).
  if (!(outcome.session && browser && login?.kind === 'form')) {
    await outcome.close();
  }
  return outcome;
}

async function logInAndCrawl(
  input: CrawlInput,
  outcome: CrawlOutcome,
  browser: ScanBrowser | null,
  router: BrowserRouter,
  limits: CrawlLimits & { timeMs: number },
  timing: { navigationMs: number; settleMs: number },
): Promise<void> {
  const { client, start, signal } = input;
  const login = input.login!;
  if (login.kind === 'form' && new URL(login.login_url).origin !== start.origin) {
    outcome.report.login = {
      kind: login.kind,
      status: 'failed',
      detail: `the login page ${login.login_url} is not on the scanned site (${start.origin})`,
      renewals: 0,
    };
    return;
  }
  let browserLogin: BrowserLogin | null = null;
  if (browser) {
    router.credentials = () => staticCredentials(login);
    browserLogin = new BrowserLogin(await browser.newTab(), router, login, start, timing, signal);
  }
  const driver = browserLogin ?? new HttpLogin(client, login, start);
  const session = new ScanSession(login, start.origin, driver);
  const ok = await session.start();
  outcome.report.login = session.report();
  if (!ok) {
    return;
  }
  // What the login itself answered (its cookies above all) is checked like any crawled answer.
  outcome.pages.push(...driver.pages);
  outcome.apiCalls.push(...(browserLogin?.calls ?? []));
  outcome.session = session;
  client.useSession(session);
  if (!browser || !browserLogin) {
    merge(outcome, await crawl(client, start, limits, input.tick, input.seeds), false);
    // What the login led to may not be linked from the start page (an account page).
    if (routeKey(driver.landing) !== routeKey(start)) {
      merge(outcome, await crawl(client, driver.landing, limits, input.tick), false);
    }
  } else {
    const checkSession: SessionCheck = async (view, exchanges) => {
      const marker = login.logged_in_marker;
      const lost =
        (marker !== undefined && !view.text.includes(marker)) ||
        session.isLoginPage(new URL(view.href)) ||
        exchanges.some(
          (e) =>
            e.request.kind === 'xhr' &&
            e.response?.status === 401 &&
            Boolean(e.request.headers.authorization ?? e.request.headers.cookie),
        );
      return lost && (await session.renew()) ? 'renewed' : 'ok';
    };
    const crawled = await browserCrawl({
      browser,
      router,
      start,
      limits,
      phase: 'session',
      signal,
      onPage: input.tick,
      checkSession,
      // The tab that logged in: a session kept in sessionStorage lives in that tab only.
      tab: browserLogin.tab,
      seeds: [browserLogin.landing],
      skip: (url) => session.isLoginPage(url),
    });
    browserLogin.refresh(session);
    merge(outcome, crawled, false);
  }
  outcome.report.login = session.report();
}
