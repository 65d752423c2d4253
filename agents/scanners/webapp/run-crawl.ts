// Which crawl a web scan runs, and the login around it. The HTML crawl always runs first (fast, and all a
// site without scripts needs). When pages run scripts and a browser is at hand (Electron's Chromium in
// the desktop app, a system Chromium through playwright-core in the worker), those pages and the routes
// their JavaScript reveals are rendered too. With a login, the scan then logs in (through the browser, or
// by posting the form) and crawls again in the session. The result says which crawl ran, and why.
import type { Finding } from '../../../shared/findings.ts';
import { ScanBrowserStopped } from '../../../shared/scan-browser.ts';
import type { ScanBrowser, ScanBrowserCut } from '../../../shared/scan-browser.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { CrawlReport, ScanOptions } from '../core/context.ts';
import { cookiesSet } from '../core/http-client.ts';
import type { CookieLine, HttpClient, HttpResponse } from '../core/http-client.ts';
import { BrowserLogin } from './auth/browser-login.ts';
import { HttpLogin } from './auth/http-login.ts';
import { ScanSession } from './auth/session.ts';
import type { ApiCall } from './browser/api-calls.ts';
import { browserLimits } from './browser/chromium.ts';
import { browserCrawl, routeKey } from './browser/crawl.ts';
import { domXssFindings } from './browser/dom-xss.ts';
import { signUpForm } from './browser/form-exercise.ts';
import type { FormBudget } from './browser/form-exercise.ts';
import type { BrowserCrawlResult, SessionCheck, StorageItem } from './browser/crawl.ts';
import { loadStretch } from './browser/load-stretch.ts';
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
  /** A script run in a page answers within this, or the page is cut (the engine's default otherwise). */
  evaluateMs?: number;
  /** The scan's request budget: the rendering may use a share of it (a page may fire requests without end). */
  maxRequests?: number;
}

/** The share of the scan's request budget the browser's pages may use, so later checks keep theirs. */
const renderingShare = 0.4;
/** Cut pages listed in the report (all are counted). */
const cutsListed = 20;

export interface CrawlInput {
  client: HttpClient;
  start: URL;
  limits: CrawlLimits;
  login?: TargetLogin;
  /** The owner allows intrusive checks: the crawl may send sign-up forms (they create an account). */
  allowIntrusive?: boolean;
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
/** `response` with `lines` (set by other answers for the same page) among its earlier cookies. */
function withEarlierCookies(response: HttpResponse, lines: readonly CookieLine[]): HttpResponse {
  const own = new Set(cookiesSet(response).map((c) => c.line));
  const byUrl = new Map<string, string[]>();
  for (const { url, line } of lines.filter((c) => !own.has(c.line))) {
    byUrl.set(url, [...(byUrl.get(url) ?? []), line]);
  }
  const added = [...byUrl].map(([url, kept]) => ({ url, lines: kept }));
  return added.length > 0
    ? { ...response, earlierCookies: [...added, ...(response.earlierCookies ?? [])] }
    : response;
}

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
    // And the cookies the HTML crawl's answer set: the browser, holding them by then, is not sent them again.
    const cookies = new Map(
      into.pages.flatMap((p) => {
        const lines = cookiesSet(p.response);
        return lines.length > 0 ? [[routeKey(p.url), lines] as const] : [];
      }),
    );
    const pages = crawled.pages.map((p) => {
      const requested = p.requested ?? asked.get(routeKey(p.url));
      const earlier = p.facts ? cookies.get(routeKey(p.url)) : undefined;
      return {
        ...p,
        ...(requested ? { requested } : {}),
        ...(earlier ? { response: withEarlierCookies(p.response, earlier) } : {}),
      };
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
  if (crawled.stopped) {
    into.report.stopped ??= crawled.stopped;
  }
}

/** What the browser held back, in the report's words (only what it did hold back). */
function boundsReport(router: BrowserRouter): CrawlReport['bounds'] {
  const { refused, trimmed, dropped, unrecorded } = router.counts;
  return refused + trimmed + dropped + unrecorded > 0
    ? {
        requests_refused: refused,
        bodies_trimmed: trimmed,
        bodies_dropped: dropped,
        exchanges_unrecorded: unrecorded,
      }
    : undefined;
}

/**
 * The logged-out crawl's forms; with a login form configured, never that one (by page or by its fields);
 * a sign-up only with consent to intrusive checks (it creates an account).
 */
function formBudget(
  limits: CrawlLimits,
  login: TargetLogin | undefined,
  allowIntrusive: boolean,
): FormBudget {
  const loginPage = login?.kind === 'form' ? routeKey(new URL(login.login_url)) : null;
  const loginFields = login?.kind === 'form' ? [login.username_field, login.password_field] : [];
  return {
    left: limits.maxForms,
    perPage: limits.formsPerPage,
    sent: new Set(),
    skip: (page, form) =>
      routeKey(page) === loginPage ||
      form.keys.some((key) => loginFields.includes(key)) ||
      (!allowIntrusive && signUpForm(form)),
  };
}

function staticCredentials(login: TargetLogin): Record<string, string> {
  if (login.kind === 'cookie') {
    return { cookie: login.cookie };
  }
  return login.kind === 'header' ? { [login.header_name.toLowerCase()]: login.header_value } : {};
}

/**
 * The rendering's time budgets on a host whose load stretches every page's deadlines by `stretch`
 * (load-stretch.ts): stretched alike, or two hostile pages cut after their stretched deadlines would
 * leave a busy host no time for the pages after them.
 */
export function stretchedBudgets(limits: CrawlLimits, stretch: number): CrawlLimits {
  return {
    ...limits,
    browserMs: Math.round(limits.browserMs * stretch),
    domXssMs: Math.round(limits.domXssMs * stretch),
  };
}

export async function runCrawl(input: CrawlInput): Promise<CrawlOutcome> {
  const { client, start, login, signal } = input;
  const limits = stretchedBudgets(input.limits, loadStretch());
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
  const router = new BrowserRouter(
    client,
    start.origin,
    limits.maxRequests ? { maxRequests: Math.floor(limits.maxRequests * renderingShare) } : {},
  );
  const cuts: ScanBrowserCut[] = [];
  let cutTotal = 0;
  const onCut = (cut: ScanBrowserCut) => {
    cutTotal += 1;
    if (cuts.length < cutsListed) {
      cuts.push({ url: cut.url.slice(0, 500), reason: cut.reason });
    }
  };
  if ('none' in input.browser) {
    outcome.report.reason = input.browser.none;
  } else if (scripted.length === 0 && !login) {
    outcome.report.reason = 'no crawled page runs a script';
  } else {
    try {
      browser = await input.browser.launch({
        route: router.route,
        initScript,
        onCut,
        ...(signal ? { signal } : {}),
      });
      outcome.report.engine = browser.engine;
      outcome.report.browser = browser.version;
      outcome.report.sandbox = browser.sandbox;
    } catch (error) {
      outcome.report.reason = `${input.browser.engine} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  }
  outcome.close = async () => {
    await browser?.close();
    browser = null;
  };
  const timing = {
    navigationMs: limits.navigationMs,
    settleMs: limits.settleMs,
    evaluateMs: limits.evaluateMs ?? browserLimits.evaluateMs,
  };
  try {
    const passMs = login ? limits.browserMs / 2 : limits.browserMs;
    const passLimits = { ...limits, ...timing, timeMs: passMs };
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
        forms: formBudget(limits, login, input.allowIntrusive ?? false),
      });
      merge(outcome, anonymous, true);
      if (!anonymous.stopped) {
        outcome.domXss = await domXss(browser, router, anonymous, limits, timing, signal);
      }
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
  if (cutTotal > 0) {
    outcome.report.cut = cuts;
    outcome.report.cut_total = cutTotal;
  }
  // The engine's own stop (its memory cap, a crash) when no crawl pass saw it happen.
  const stopped = outcome.report.stopped ?? browser?.stopped;
  if (stopped && !signal?.aborted) {
    outcome.report.stopped = stopped;
  }
  const bounds = boundsReport(router);
  if (bounds) {
    outcome.report.bounds = bounds;
  }
  // The browser stays only while it holds the login (to log in again if a later phase loses it).
  if (!(outcome.session && browser && login?.kind === 'form' && !browser.stopped)) {
    await outcome.close();
  }
  return outcome;
}

/** The DOM XSS probe on the logged-out pass's routes; a browser gone ends it with what it proved. */
async function domXss(
  browser: ScanBrowser,
  router: BrowserRouter,
  anonymous: BrowserCrawlResult,
  limits: CrawlLimits,
  timing: { navigationMs: number; evaluateMs: number; settleMs: number },
  signal: AbortSignal | undefined,
): Promise<Finding[]> {
  try {
    return await domXssFindings(
      await browser.newTab(),
      router,
      anonymous.pages,
      anonymous.urlParams,
      {
        maxRoutes: limits.domXssRoutes,
        paramsPerRoute: 6,
        timeMs: limits.domXssMs,
        navigationMs: timing.navigationMs,
        evaluateMs: timing.evaluateMs,
        // A payload runs as the route renders: the app's requests settle sooner than a crawl's page.
        settleMs: Math.min(timing.settleMs, 2500),
      },
      signal,
      anonymous,
    );
  } catch (error) {
    if (error instanceof ScanBrowserStopped) {
      return [];
    }
    throw error;
  }
}

async function logInAndCrawl(
  input: CrawlInput,
  outcome: CrawlOutcome,
  browser: ScanBrowser | null,
  router: BrowserRouter,
  limits: CrawlLimits & { timeMs: number; evaluateMs: number },
  timing: { navigationMs: number; settleMs: number; evaluateMs: number },
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
  // A browser stopped in the logged-out pass (its memory, a crash) leaves the login to plain HTTP.
  const tab = browser && !browser.stopped ? await browser.newTab().catch(() => null) : null;
  if (tab) {
    router.credentials = () => staticCredentials(login);
    browserLogin = new BrowserLogin(tab, router, login, start, timing, signal);
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
    // The tab that holds the login waits on a blank page: the last page crawled (a page that polls,
    // floods or allocates) does not go on running through the later phases.
    await browserLogin.tab.goto('about:blank', timing.navigationMs).catch(() => undefined);
  }
  outcome.report.login = session.report();
}
