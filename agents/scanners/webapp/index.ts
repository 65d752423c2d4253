// The web-application scanner: crawl, then passive checks on what came back, then bounded active probes.
import type { Finding } from '../../../shared/findings.ts';
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { probeCors } from '../core/cors.ts';
import { header, HttpClient } from '../core/http-client.ts';
import { PHASE_SHARE } from '../core/limits.ts';
import { PhaseRunner } from '../core/phases.ts';
import { reachTarget } from '../core/reach.ts';
import { forEachLimit } from '../core/pool.ts';
import { ProgressTracker } from '../core/progress.ts';
import { speaksTls, tlsFindings } from '../core/tls-check.ts';
import { TargetPolicy } from '../target-policy.ts';
import { chooseBrowser } from './browser/choose.ts';
import { apiCandidates, corsWildcardFindings } from './cors-wildcard.ts';
import type { Endpoint, Page } from './crawl.ts';
import { directoriesOf, knownUrls } from './directories.ts';
import { discoverEndpoints } from './discovery/index.ts';
import type { Discovery } from './discovery/index.ts';
import { errorPageFindings } from './error-pages.ts';
import { exposedFileFindings } from './exposed-files.ts';
import { headerFindings } from './header-checks.ts';
import { injectionFindings } from './injection/index.ts';
import { methodBypassFindings } from './method-bypass.ts';
import { probeFindings } from './probes.ts';
import { webappFinding } from './rules.ts';
import { runCrawl } from './run-crawl.ts';
import type { CrawlOutcome } from './run-crawl.ts';
import { spaFindings } from './spa-checks.ts';
import { secretFindings } from './secrets.ts';
import { readSiteMaps } from './site-maps.ts';
import type { SiteMaps } from './site-maps.ts';
import { libraryFindings } from './vulnerable-libs.ts';
import { writeMethodFindings } from './write-methods.ts';

export const webappLimits = {
  maxPages: 60,
  maxDepth: 4,
  maxRequests: 4000,
  timeoutMs: 8000,
  maxScripts: 30,
  browserMs: 90_000,
  navigationMs: 10_000,
  settleMs: 4000,
  maxForms: 8,
  formsPerPage: 3,
  domXssRoutes: 12,
  domXssMs: 45_000,
  /** Resources fetched by the endpoint discovery (JavaScript paths, OpenAPI, API indexes). */
  maxDiscovered: 40,
  /** Parameters the injection probes exercise (about 30 requests each when nothing is found). */
  maxInjectionParams: 40,
};

/** Alternates two lists, so that a cut-off keeps some of each. */
function interleave<T>(a: T[], b: T[]): T[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => [a[i], b[i]])
    .flat()
    .filter((x): x is T => x !== undefined);
}

export function parseWebTarget(target: string): URL {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target : `http://${target}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`web targets are http:// or https:// URLs, not ${url.protocol}`);
  }
  url.hash = '';
  return url;
}

export async function runWebappScan(options: ScanOptions): Promise<ScanResult> {
  const started = Date.now();
  let start = parseWebTarget(options.target);
  const policy = new TargetPolicy(options.mode, options.resolver);
  const client = new HttpClient({
    policy,
    signal: options.signal,
    maxRequests: webappLimits.maxRequests,
    timeoutMs: webappLimits.timeoutMs,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  const progress = new ProgressTracker(options.onProgress, () => client.requests);
  const phases = new PhaseRunner(progress, options.signal, {
    phaseMs: (options.timeLimitMs ?? Number.POSITIVE_INFINITY) * PHASE_SHARE,
    onPhase: (signal) => client.scope(signal),
  });
  const findings = new FindingSet(options.onFinding);
  const addAll = (list: Finding[]) => list.forEach((finding) => findings.add(finding));
  let pages: Page[] = [];
  let endpoints: Endpoint[] = [];
  let crawled = null as CrawlOutcome | null;
  const scriptBodies: { url: URL; body: string }[] = [];
  let discovery: Discovery = { endpoints: [], resources: [], findings: [] };
  let siteMaps: SiteMaps | undefined;
  const directories = () => directoriesOf(knownUrls(pages, endpoints, siteMaps), start, 12);
  try {
    await policy.assertUrl(start);
    await phases.run('transport', 5, async () => {
      const first = await reachTarget(client, start, (why) => phases.fail('transport', why));
      const location = first ? header(first, 'location') : undefined;
      const next = location ? new URL(location, start) : null;
      if (next?.protocol === 'https:' && next.hostname === start.hostname && start.protocol === 'http:') {
        start = new URL(next.href);
      } else if (first && start.protocol === 'http:') {
        const resolved = await policy.resolve(start.hostname);
        // HTTPS on the standard port next to plain HTTP means users could be on TLS but are not sent there.
        const httpsNextDoor = (start.port === '' || start.port === '80') && (await speaksTls(resolved, 443));
        findings.add(
          httpsNextDoor
            ? webappFinding('web.transport.no-https-redirect', {
                location: start.href,
                evidence: `HTTP ${first.status} without redirect; HTTPS answers on port 443`,
              })
            : webappFinding('web.transport.cleartext', {
                location: start.href,
                evidence: `served over plain HTTP (HTTP ${first.status}); no HTTPS redirect`,
              }),
        );
      }
      if (start.protocol === 'https:') {
        const resolved = await policy.resolve(start.hostname);
        addAll(
          await tlsFindings(
            resolved,
            Number(start.port || 443),
            start.origin,
            // TLS probes are connections to the customer's server too: they take turns of its rate limit.
            { signal: client.signal, pace: () => client.turn() },
          ),
        );
      }
    });
    await phases.run('robots & sitemap', 2, async () => {
      siteMaps = await readSiteMaps(client, start);
    });
    await phases.run('crawl', 25, async (tick, signal) => {
      crawled = await runCrawl({
        client,
        start,
        limits: webappLimits,
        browser: chooseBrowser(options.browser),
        ...(siteMaps ? { seeds: siteMaps.seeds } : {}),
        ...(options.login ? { login: options.login } : {}),
        signal,
        tick,
      });
      ({ pages, endpoints } = crawled);
      // Rendering that stopped early (the browser over its memory cap) or pages the browser cut short
      // leave the scan partial, saying so (crawl.cut and crawl.stopped tell the rest).
      const rendering = crawled.report;
      if (rendering.stopped && !signal.aborted) {
        phases.fail('crawl', `rendering stopped: ${rendering.stopped}`);
      } else if (rendering.cut_total) {
        phases.fail(
          'crawl',
          `${rendering.cut_total} page(s) cut short in the browser (${rendering.cut![0]!.reason})`,
        );
      }
      addAll(headerFindings(pages));
      pages.forEach((page) => addAll(secretFindings(page.url.href, page.response.body)));
    });
    await phases.run('scripts', 5, async (tick) => {
      const scripts = new Map<string, string>();
      for (const page of pages) {
        for (const script of page.facts?.scripts ?? []) {
          if (script.src) {
            scripts.set(script.src.href, page.url.href);
          } else {
            addAll(libraryFindings(page.url.href, '', script.inline));
          }
        }
      }
      const list = [...scripts.keys()].slice(0, webappLimits.maxScripts);
      let done = 0;
      await forEachLimit(list, 4, async (src) => {
        // Guard: only same-origin scripts are fetched; third-party hosts are judged by URL alone.
        const body = new URL(src).origin === start.origin ? ((await client.tryRequest(src))?.body ?? '') : '';
        scriptBodies.push({ url: new URL(src), body });
        addAll(libraryFindings(src, src, body));
        addAll(secretFindings(src, body));
        tick(++done, list.length);
      });
    });
    await phases.run('single-page app', 5, async (tick) => {
      if (crawled) {
        addAll(await spaFindings(client, crawled, tick));
      }
    });
    await phases.run('discovery', 5, async (tick) => {
      discovery = await discoverEndpoints(
        client,
        start,
        { pages, scripts: scriptBodies, known: endpoints, loggedIn: Boolean(crawled?.session) },
        { maxResources: webappLimits.maxDiscovered },
        tick,
      );
      addAll(discovery.findings);
    });
    await phases.run('exposed files', 20, async (tick) => {
      addAll(await exposedFileFindings(client, start, pages, tick, { endpoints, siteMaps }));
    });
    // Without the login of an authenticated scan (write-methods.ts): what anyone may write is the question.
    await phases.run('write methods', 5, async (tick) => {
      addAll(await writeMethodFindings(client, start, directories(), tick));
      addAll(await methodBypassFindings(client, pages, () => undefined));
    });
    await phases.run('cors', 5, async (tick) => {
      const candidates = [
        ...new Set([
          ...[start.href, ...pages.map((page) => page.url.href)].slice(0, 12),
          ...discovery.resources.slice(0, 12).map((url) => url.href),
        ]),
      ];
      let done = 0;
      for (const href of candidates) {
        const result = await probeCors(client, new URL(href));
        if (result.reflected) {
          findings.add(
            webappFinding('web.cors.reflected-origin', { location: href, evidence: result.reflected }),
          );
        }
        if (result.nullOrigin) {
          findings.add(
            webappFinding('web.cors.null-origin', { location: href, evidence: result.nullOrigin }),
          );
        }
        tick(++done, candidates.length);
      }
    });
    await phases.run('api cors', 2, async (tick) => {
      const seen = pages.map((page) => ({ url: page.url, response: page.response }));
      addAll(
        await corsWildcardFindings(client, apiCandidates(seen, knownUrls([], endpoints, siteMaps)), tick),
      );
    });
    const probed = interleave(endpoints, discovery.endpoints);
    await phases.run('active probes', 15, async (tick) => {
      addAll(await probeFindings(client, probed, tick));
    });
    await phases.run('injection', 20, async (tick) => {
      const { skipped } = await injectionFindings(client, probed, {
        maxParams: webappLimits.maxInjectionParams,
        requestsLeft: webappLimits.maxRequests - client.requests,
        sqlKnown: (location) => findings.has('web.sqli.error', location),
        onFinding: (finding) => findings.add(finding),
        onProgress: tick,
      });
      // Parameters left unprobed for want of budget make the scan partial, saying so.
      if (skipped > 0) {
        phases.fail('injection', `${skipped} parameter(s) left unprobed: the scan's request budget ran out`);
      }
    });
    await phases.run('error pages', 5, async (tick) => {
      addAll(await errorPageFindings(client, directories(), endpoints, tick));
    });
  } finally {
    await crawled?.close();
    client.close();
  }
  progress.finish();
  const crawl = crawled?.report;
  return {
    target: options.target,
    type: 'webapp',
    findings: findings.list(),
    stats: { requests: client.requests, duration_ms: Date.now() - started },
    ...(crawl
      ? { crawl: { ...crawl, ...(crawled?.session ? { login: crawled.session.report() } : {}) } }
      : {}),
    ...phases.outcome(),
  };
}
