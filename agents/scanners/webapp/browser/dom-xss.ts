// DOM-based XSS: single-page apps read values from the URL (the query string, or the query of a hash
// route such as /#/search?q=) and write them into the page, where no server ever sees the result. Each
// distinct rendered route with parameters is loaded again with a harmless payload in one parameter at a
// time; the payload calls window.__vigilDom(id) (dom-sinks.ts), and only that call, the payload's script
// actually running in the page, is reported; a payload merely shown, escaped or stripped is not.
import type { Finding } from '../../../../shared/findings.ts';
import { ScanBrowserStopped, ScanTabCut } from '../../../../shared/scan-browser.ts';
import type { ScanBrowserTab } from '../../../../shared/scan-browser.ts';
import type { Page } from '../crawl.ts';
import { webappFinding } from '../rules.ts';
import { isBrowserEnd, sleep, within } from './bounded.ts';
import { routeKey } from './crawl.ts';
import type { BrowserRouter } from './router.ts';

/**
 * Markup for HTML sinks in text (no quote: a quote may break the app's own request, say an injectable
 * search API, so the view that writes the term never renders), then breaking out of a quoted attribute,
 * then a URL for location and frame sinks.
 */
export const domPayloads = [
  (id: number) => `<img src=x onerror=__vigilDom(${id})>`,
  (id: number) => `"'><img src=x onerror=__vigilDom(${id})>`,
  (id: number) => `javascript:parent.__vigilDom(${id})`,
];

export interface DomXssLimits {
  maxRoutes: number;
  paramsPerRoute: number;
  timeMs: number;
  navigationMs: number;
  settleMs: number;
  evaluateMs: number;
}

/** A rendered route and the URL parameters to try on it, all at once (each with its own marker). */
export interface RouteTarget {
  route: URL;
  /** Where its parameters go: the query string, or the query of its hash route. */
  in: 'query' | 'hash';
  params: string[];
  /** The finding's location for one parameter: the route without values (stable between scans). */
  location: (param: string) => string;
}

/** The query of a hash route (#/search?q=x), split off its path. */
function hashQuery(url: URL): { path: string; query: URLSearchParams } | null {
  const match = /^#(!?\/[^?]*)(?:\?(.*))?$/.exec(url.hash);
  return match ? { path: match[1]!, query: new URLSearchParams(match[2] ?? '') } : null;
}

/**
 * One target per route shape (a path, or a hash route's path, whatever document it was seen under), with
 * the parameters seen in its URL, then the names the app's scripts read, within the limits.
 */
export function routeTargets(
  pages: Page[],
  readNames: string[],
  limits: Pick<DomXssLimits, 'maxRoutes' | 'paramsPerRoute'>,
  heavy: (url: URL) => boolean = () => false,
): RouteTarget[] {
  const out = new Map<string, RouteTarget & { seen: number; heavy: boolean }>();
  for (const page of pages) {
    const url = page.url;
    // A document without a script (a file, a listing) has nothing that could write a value into the page.
    if (!page.facts || page.facts.scripts.length === 0) {
      continue;
    }
    const hash = hashQuery(url);
    const base = `${url.origin}${url.pathname}`;
    const shape = hash ? `${base}#${hash.path}` : base;
    const seen = hash ? [...hash.query.keys()] : [...url.searchParams.keys()];
    const params = [...new Set([...seen, ...readNames])].slice(0, limits.paramsPerRoute);
    if (params.length === 0 || out.has(shape)) {
      continue;
    }
    out.set(shape, {
      route: url,
      in: hash ? 'hash' : 'query',
      params,
      location: (param) => `${shape}?${param}=`,
      seen: seen.length,
      heavy: heavy(url),
    });
  }
  // Routes whose URLs carried parameters first: the app itself puts values there, so it reads them back.
  // Pages that were slow or flooding to render come last: they must not spend the probe's time on others.
  return [...out.values()]
    .sort((a, b) => Number(b.seen > 0) - Number(a.seen > 0) || Number(a.heavy) - Number(b.heavy))
    .slice(0, limits.maxRoutes)
    .map(({ seen: _seen, heavy: _heavy, ...target }) => target);
}

const encode = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;

/** The route with each parameter set to its value (percent-encoded: every URL decoder reads it back whole). */
export function withValues(target: RouteTarget, values: Map<string, string>): URL {
  const url = new URL(target.route);
  const hash = hashQuery(url);
  const query = target.in === 'query' ? url.searchParams : (hash?.query ?? new URLSearchParams());
  const pairs = [...query.entries()].filter(([k]) => !values.has(k)).map(([k, v]) => encode(k, v));
  const search = [...pairs, ...[...values].map(([k, v]) => encode(k, v))].join('&');
  if (target.in === 'query') {
    url.search = search;
  } else {
    url.hash = `${hash!.path}?${search}`;
  }
  return url;
}

const hitsScript = `(() => (window.__vigilDomHits ? window.__vigilDomHits() : []))()`;

/** Routes the crawl found troublesome: cut short (never loaded again), or slow or flooding (tried last). */
export interface RoutesToAvoid {
  cut: ReadonlySet<string>;
  heavy: ReadonlySet<string>;
}

/**
 * Loads each target route with payloads and reports the parameters whose payload ran. Routes the crawl
 * had to cut (a page that never yields, or ran out of memory) are not loaded again, nor is a route once a
 * load of it was cut; a browser gone ends the probe with what it proved so far.
 */
export async function domXssFindings(
  tab: ScanBrowserTab,
  router: BrowserRouter,
  pages: Page[],
  readNames: string[],
  limits: DomXssLimits,
  signal?: AbortSignal,
  avoid: RoutesToAvoid = { cut: new Set(), heavy: new Set() },
): Promise<Finding[]> {
  const deadline = Date.now() + limits.timeMs;
  const findings = new Map<string, Finding>();
  let id = 0;
  const load = async (url: URL) => {
    await router.visit(tab, url.href, within(deadline, limits.navigationMs));
    // A hash route renders after the navigation has returned: its requests start a moment later.
    await sleep(250);
    await router.settled(300, within(deadline, limits.settleMs), signal);
    const documents = router
      .take()
      .flatMap((e) => (e.request.navigation && e.response ? [e.response.body] : []));
    const hits = await tab
      .evaluate<{ id: string; sink: string | null }[]>(hitsScript, within(deadline, limits.evaluateMs))
      .catch((error: unknown) => {
        if (isBrowserEnd(error)) {
          throw error;
        }
        return [];
      });
    // A payload the server itself wrote into the document is reflected XSS (probes.ts), not the page's doing.
    return { hits, served: (value: string) => documents.some((body) => body.includes(value)) };
  };
  const targets = routeTargets(
    pages.filter((page) => !avoid.cut.has(routeKey(page.url))),
    readNames,
    limits,
    (url) => avoid.heavy.has(routeKey(url)),
  );
  for (const target of targets) {
    try {
      await probeRoute(target);
    } catch (error) {
      if (error instanceof ScanBrowserStopped) {
        break;
      }
      // A load cut short: this route is left, the next one gets a fresh tab.
      if (!(error instanceof ScanTabCut)) {
        throw error;
      }
    }
  }
  return [...findings.values()];

  async function probeRoute(target: RouteTarget): Promise<void> {
    let open = target.params;
    for (const payload of domPayloads) {
      if (Date.now() >= deadline || signal?.aborted || router.stopped || open.length === 0) {
        break;
      }
      // Every open parameter of the route at once, each with a marker of its own.
      const sent = new Map(open.map((param) => [String(++id), { param, value: payload(id) }]));
      const url = withValues(target, new Map([...sent.values()].map((s) => [s.param, s.value])));
      const { hits, served } = await load(url);
      for (const hit of hits) {
        const what = sent.get(hit.id);
        if (
          !what ||
          served(what.value) ||
          findings.has(target.location(what.param)) ||
          Date.now() >= deadline
        ) {
          continue;
        }
        // Confirmed alone: the parameter by itself, with a fresh marker, must run again.
        const value = payload(++id);
        const alone = withValues(target, new Map([[what.param, value]]));
        const again = await load(alone);
        const confirmed = again.served(value) ? undefined : again.hits.find((h) => h.id === String(id));
        if (confirmed) {
          const sink = confirmed.sink ?? hit.sink;
          findings.set(
            target.location(what.param),
            webappFinding('web.xss.dom', {
              location: target.location(what.param),
              evidence: `${what.param}=${value} in ${target.in === 'hash' ? "the hash route's query" : 'the query string'} ran in the page: the payload's script called the scan's marker function${sink ? ` (written through ${sink})` : ''}; loaded ${alone.href}`,
            }),
          );
        }
      }
      open = open.filter((param) => !findings.has(target.location(param)));
    }
  }
}
