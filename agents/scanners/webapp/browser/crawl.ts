// The browser crawl: breadth-first over the app's routes, each rendered in Chromium (the page's own
// JavaScript runs), within page, depth and time limits. It yields the same Page and Endpoint data as the
// HTML crawl (crawl.ts), built from the rendered DOM, plus what only JavaScript reveals: client-side routes
// (pushState and hash routes), the app's XHR/fetch requests with their answers (as pages without HTML facts
// and as endpoints), scripts loaded on the fly, and what the app keeps in web storage.
import { ScanBrowserStopped, ScanTabCut } from '../../../../shared/scan-browser.ts';
import type { ScanBrowser, ScanBrowserTab } from '../../../../shared/scan-browser.ts';
import type { HttpResponse } from '../../core/http-client.ts';
import { isLogout } from '../auth/logout.ts';
import type { Endpoint, Page } from '../crawl.ts';
import { parseHtml } from '../html.ts';
import type { HtmlFacts } from '../html.ts';
import { apiCallOf, endpointOf } from './api-calls.ts';
import { isBrowserEnd, within } from './bounded.ts';
import type { ApiCall } from './api-calls.ts';
import { exerciseForms } from './form-exercise.ts';
import type { FormBudget } from './form-exercise.ts';
import { snapshotScript } from './page-scripts.ts';
import type { PageSnapshot } from './page-scripts.ts';
import type { BrowserRouter, Exchange } from './router.ts';
import { urlParamNames } from './url-params.ts';

export interface BrowserCrawlLimits {
  maxPages: number;
  maxDepth: number;
  /** Wall-clock budget of the whole crawl. */
  timeMs: number;
  /** Per page: the navigation, then waiting for the app's requests to go quiet. */
  navigationMs: number;
  settleMs: number;
  /** A script run in the page (the snapshot, a form's filling) answers within this, or the page is cut. */
  evaluateMs: number;
}

export interface StorageItem {
  area: 'local' | 'session';
  key: string;
  value: string;
  /** The page where it was first seen. */
  page: string;
}

export interface BrowserCrawlResult {
  pages: Page[];
  endpoints: Endpoint[];
  apiCalls: ApiCall[];
  storage: StorageItem[];
  /** Names of URL parameters the app's scripts read (for the DOM XSS probe). */
  urlParams: string[];
  /** Routes whose page the browser cut short (a script that never yields, a renderer out of memory). */
  cut: Set<string>;
  /** Routes whose page took long to render or made more requests than a visit may: probed last. */
  heavy: Set<string>;
  /** Why rendering stopped before the crawl was done (the browser was killed or crashed), if it did. */
  stopped?: string;
}

/** A visit the session check looked at: the snapshot, and what the page's requests got back. */
export type SessionCheck = (snapshot: PageSnapshot, exchanges: Exchange[]) => Promise<'ok' | 'renewed'>;

export interface BrowserCrawlOptions {
  browser: ScanBrowser;
  router: BrowserRouter;
  start: URL;
  limits: BrowserCrawlLimits;
  phase: ApiCall['phase'];
  signal?: AbortSignal;
  onPage: (done: number, total: number) => void;
  /** In the login session: after each page, tells whether the session was lost (and renewed). */
  checkSession?: SessionCheck;
  /** Further start points (routes an earlier pass found). */
  seeds?: URL[];
  /** Routes not to render (pages whose HTML runs no script, the login page once logged in). */
  skip?: (url: URL) => boolean;
  /** The tab to crawl in (the one that logged in: sessionStorage belongs to a tab); a new one by default. */
  tab?: ScanBrowserTab;
  /** Fill and send the forms of rendered pages (form-exercise.ts), within this budget. */
  forms?: FormBudget;
}

const skipExtensions = /\.(png|jpe?g|gif|svg|ico|webp|woff2?|ttf|eot|mp4|mp3|pdf|zip|gz|css|js|map|json)$/i;

/** A route's identity: its URL, with the fragment kept only when it is a client-side route (#/ or #!). */
export function routeKey(url: URL): string {
  const copy = new URL(url);
  if (!/^#!?\//.test(copy.hash)) {
    copy.hash = '';
  }
  return copy.href;
}

/** Routes of one template (/products/1, /products/2…): rendering a few tells what all of them do. */
const perTemplate = 2;
const templateOf = (url: URL) =>
  `${url.pathname.replace(/\/(?:\d+|[0-9a-f]{8}-[0-9a-f-]{27,}|[0-9a-f]{24,})(?=\/|$)/gi, '/{id}')}${/^#!?\//.test(url.hash) ? url.hash.replace(/\/\d+(?=\/|$)/g, '/{id}') : ''}`;

async function snapshot(
  tab: ScanBrowserTab,
  router: BrowserRouter,
  options: BrowserCrawlOptions,
  deadline: number,
) {
  // A page that navigates while it is read (a client-side redirect) is read again once it has settled.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await tab.evaluate<PageSnapshot>(snapshotScript, within(deadline, options.limits.evaluateMs));
    } catch (error) {
      if (isBrowserEnd(error)) {
        throw error;
      }
      await router.settled(200, within(deadline, options.limits.settleMs), options.signal);
    }
  }
  return null;
}

/** A visit longer than this (navigation, requests going quiet, snapshot) marks its page as heavy. */
const heavyMs = 6000;

/** API calls kept for the checks, in all and per method and path (a page calling /api/x?n=1…n=9999). */
const maxApiCalls = 400;
const callsPerPath = 10;

export async function browserCrawl(options: BrowserCrawlOptions): Promise<BrowserCrawlResult> {
  const { browser, router, start, limits, signal } = options;
  const deadline = Date.now() + limits.timeMs;
  const pages: Page[] = [];
  const apiCalls = new Map<string, ApiCall>();
  const perPath = new Map<string, number>();
  const endpoints = new Map<string, Endpoint>();
  const storage = new Map<string, StorageItem>();
  const urlParams = new Set<string>();
  const cut = new Set<string>();
  const heavy = new Set<string>();
  let stopped: string | undefined;
  let shown: HttpResponse | null = null;
  const queued = new Set<string>();
  const templates = new Map<string, number>();
  const queue: { url: URL; depth: number }[] = [];
  const enqueue = (url: URL, depth: number, text = '') => {
    const key = routeKey(url);
    const template = templateOf(url);
    if (
      url.origin !== start.origin ||
      queued.has(key) ||
      (templates.get(template) ?? 0) >= perTemplate ||
      skipExtensions.test(url.pathname) ||
      isLogout(url, 'GET', text) ||
      (options.skip?.(url) ?? false)
    ) {
      return;
    }
    queued.add(key);
    templates.set(template, (templates.get(template) ?? 0) + 1);
    queue.push({ url: new URL(key), depth });
  };
  queued.add(routeKey(start));
  queue.push({ url: start, depth: 0 });
  for (const seed of options.seeds ?? []) {
    enqueue(seed, 1);
  }
  // The app's own requests, in a stable order (they may run in parallel).
  const record = (exchanges: Exchange[], depth: number, sentForm: boolean) => {
    const calls = exchanges
      .map((exchange) => apiCallOf(exchange, options.phase))
      .filter((call): call is ApiCall => call !== null)
      .sort((a, b) => `${a.method} ${a.url.href}`.localeCompare(`${b.method} ${b.url.href}`));
    for (const call of calls) {
      const callKey = `${call.method} ${call.url.href}`;
      const pathKey = `${call.method} ${call.url.origin}${call.url.pathname}`;
      if (
        !apiCalls.has(callKey) &&
        apiCalls.size < maxApiCalls &&
        (perPath.get(pathKey) ?? 0) < callsPerPath
      ) {
        perPath.set(pathKey, (perPath.get(pathKey) ?? 0) + 1);
        // Kept for the rest of the scan: its body counts against the router's memory budget.
        call.response = router.retain(call.response);
        apiCalls.set(callKey, call);
        pages.push({ url: call.url, response: call.response, facts: null, depth });
      }
      const endpoint = call.url.origin === start.origin ? endpointOf(call, { json: sentForm }) : null;
      if (endpoint && !isLogout(call.url, call.method, '')) {
        endpoints.set(`${endpoint.method} ${endpoint.url.pathname} ${endpoint.params.join(',')}`, endpoint);
      }
    }
  };
  const tab = options.tab ?? (await browser.newTab());
  // Late calls of what ran before the crawl (a login, the DOM XSS probes) are not the crawl's pages' calls.
  router.takeLate();
  const visited = new Set<string>();
  const visit = async (url: URL, depth: number) => {
    let view: PageSnapshot | null = null;
    let exchanges: Exchange[] = [];
    const began = Date.now();
    const refusedBefore = router.counts.refused;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await router.visit(tab, url.href, within(deadline, limits.navigationMs));
      await router.settled(300, within(deadline, limits.settleMs), signal);
      view = await snapshot(tab, router, options, deadline);
      exchanges = router.take();
      // A lost session is renewed and the page visited again, once.
      if (!view || !options.checkSession || (await options.checkSession(view, exchanges)) === 'ok') {
        break;
      }
    }
    if (Date.now() - began > heavyMs || router.counts.refused > refusedBefore) {
      heavy.add(routeKey(url));
    }
    if (!view) {
      return;
    }
    // The document the tab shows: this visit's last loaded navigation, else (a hash or pushState route
    // of the same app) the one loaded before. Its URL may differ from the route the app moved to.
    for (const exchange of exchanges) {
      if (exchange.request.navigation && exchange.response && exchange.response.status < 300) {
        shown = exchange.response;
      }
    }
    const here = new URL(view.href);
    const key = routeKey(here);
    const response = here.origin === start.origin ? shown : null;
    let facts: HtmlFacts | null = null;
    if (response && !visited.has(key)) {
      visited.add(key);
      facts = parseHtml(view.html, here);
      const known = new Set(facts.scripts.map((s) => s.src?.href));
      const loaded = [
        ...exchanges.filter((e) => e.request.kind === 'script').map((e) => e.request.url),
        ...router.foreignScripts,
      ];
      for (const script of facts.scripts) {
        urlParamNames(script.inline).forEach((name) => urlParams.add(name));
      }
      for (const src of loaded) {
        if (!known.has(src)) {
          known.add(src);
          facts.scripts.push({ src: new URL(src), inline: '' });
        }
      }
      pages.push({ url: new URL(key), response: router.retain(response), facts, depth });
      options.onPage(pages.length, Math.min(limits.maxPages, pages.length + queue.length));
    }
    record(exchanges, depth, false);
    record(router.takeLate(), depth, false);
    for (const item of view.storage) {
      const itemKey = `${item.area}:${item.key}`;
      if (!storage.has(itemKey) && storage.size < 500) {
        storage.set(itemKey, { ...item, page: key });
      }
    }
    const sent =
      facts && options.forms
        ? await exerciseForms(tab, router, here, options.forms, {
            ...limits,
            deadline,
            ...(signal ? { signal } : {}),
          })
        : null;
    if (sent) {
      record(sent.exchanges, depth, true);
    }
    if (depth >= limits.maxDepth) {
      return;
    }
    for (const route of sent?.routes ?? []) {
      enqueue(new URL(route), depth + 1);
    }
    for (const link of view.links) {
      enqueue(new URL(link.href), depth + 1, link.text);
    }
    for (const route of view.routes) {
      enqueue(new URL(route), depth + 1);
    }
    for (const form of facts?.forms ?? []) {
      if (form.fields.length > 0 && form.action.origin === start.origin) {
        endpoints.set(`${form.method} ${form.action.pathname} ${form.fields.join(',')}`, {
          url: form.action,
          method: form.method,
          params: form.fields,
        });
      }
    }
    // Links with query strings are endpoints too, as in the HTML crawl.
    for (const link of view.links) {
      const linkUrl = new URL(link.href);
      const params = [...linkUrl.searchParams.keys()];
      if (linkUrl.origin === start.origin && params.length > 0 && !isLogout(linkUrl, 'GET', link.text)) {
        endpoints.set(`GET ${linkUrl.pathname} ${params.join(',')}`, { url: linkUrl, method: 'GET', params });
      }
    }
  };
  while (queue.length > 0 && pages.length < limits.maxPages && Date.now() < deadline) {
    if (signal?.aborted || router.stopped) {
      break;
    }
    const { url, depth } = queue.shift()!;
    try {
      await visit(url, depth);
    } catch (error) {
      // A page cut short is left (the browser reported why); a browser gone ends the rendering.
      if (error instanceof ScanTabCut) {
        cut.add(routeKey(url));
        continue;
      }
      if (error instanceof ScanBrowserStopped) {
        stopped = error.reason;
        break;
      }
      throw error;
    }
  }
  // The last page's calls still under way (a slow POST) are waited for, within the settle budget.
  if (!signal?.aborted && !router.stopped && pages.length > 0) {
    await router.settled(0, within(deadline, limits.settleMs), signal);
    record(router.takeLate(), 1, false);
  }
  router.scriptParams.forEach((name) => urlParams.add(name));
  if (router.stopped) {
    throw router.stopped;
  }
  return {
    pages,
    endpoints: [...endpoints.values()],
    apiCalls: [...apiCalls.values()],
    storage: [...storage.values()],
    urlParams: [...urlParams],
    cut,
    heavy,
    ...(stopped ? { stopped } : {}),
  };
}
