// The web-application scanner's checks, in the order they run (core/checks.ts): the crawl, then passive
// checks on what came back, then bounded active probes.
import type { Check } from '../core/checks.ts';
import type { ScanOptions } from '../core/context.ts';
import { probeCors } from '../core/cors.ts';
import { header } from '../core/http-client.ts';
import type { HttpClient } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { reachTarget } from '../core/reach.ts';
import { speaksTls, tlsFindings } from '../core/tls-check.ts';
import { tlsRules } from '../core/tls-rules.ts';
import type { TlsRuleId } from '../core/tls-rules.ts';
import type { TargetPolicy } from '../target-policy.ts';
import { chooseBrowser } from './browser/choose.ts';
import { apiCandidates, corsWildcardFindings } from './cors-wildcard.ts';
import type { Endpoint, Page } from './crawl.ts';
import { directoriesOf, knownUrls } from './directories.ts';
import { discoverEndpoints } from './discovery/index.ts';
import type { Discovery } from './discovery/index.ts';
import { errorPageFindings, methodErrorFindings } from './error-pages.ts';
import { exposedFileFindings } from './exposed-files.ts';
import { headerFindings } from './header-checks.ts';
import { deserializationFindings, serializedCarriers, uploadCarriers } from './deserialization.ts';
import { injectionFindings, untimedNote } from './injection/index.ts';
import type { Untimed } from './injection/index.ts';
import { TimingLane } from './injection/lane.ts';
import { nosqlFindings } from './injection/nosql.ts';
import { methodBypassFindings } from './method-bypass.ts';
import { findPlaces, type Places } from './places.ts';
import { probeFindings } from './parameter-probes.ts';
import { webappFinding } from './rules.ts';
import type { WebappRuleId } from './rules.ts';
import { runCrawl } from './run-crawl.ts';
import type { CrawlOutcome } from './run-crawl.ts';
import { secretFindings } from './secrets.ts';
import { readSiteMaps } from './site-maps.ts';
import type { SiteMaps } from './site-maps.ts';
import { spaFindings } from './spa-checks.ts';
import { libraryFindings } from './vulnerable-libs.ts';
import { apiDocsFindings, findApiDocuments } from './api-docs.ts';
import { csrfFindings, sessionCookiesOf } from './csrf.ts';
import { jwtFindings, tokensIn, tokensOfAnswer } from './jwt-tokens.ts';
import type { CookieSighting } from './signed-cookies.ts';
import { cookiesOfAnswer, signedCookieFindings } from './signed-cookies.ts';
import { passwordExposureFindings } from './password-exposure.ts';
import { resetTokenFindings } from './reset-tokens.ts';
import type { TokenSighting } from './jwt-tokens.ts';
import {
  LOGIN_ATTEMPTS,
  loginRateLimitFindings,
  ownLoginForms,
  resetRateLimitFindings,
} from './login-rate-limit.ts';
import { writeMethodFindings } from './write-methods.ts';
import { writeChecks } from './write/checks.ts';
import { uploadPlaces, xmlPlaces, xxeFindings, xxeUnjudgedNote } from './xxe.ts';

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
  /** Requests the place wordlist may cost (places.ts: its entries and their parents' missing answers). */
  maxPlaceRequests: 40,
  /** Parameters the injection probes exercise (about 30 requests each when nothing is found). */
  maxInjectionParams: 40,
};

/** What the web scan's checks share: the site, and what the crawl and discovery found on it. */
export interface WebScan {
  readonly options: ScanOptions;
  readonly policy: TargetPolicy;
  readonly client: HttpClient;
  /** Where the scan starts (moved to HTTPS when the site redirects there). */
  start: URL;
  siteMaps?: SiteMaps;
  crawled: CrawlOutcome | null;
  pages: Page[];
  endpoints: Endpoint[];
  /** Same-origin scripts, fetched; others have an empty body (judged by URL alone). */
  scripts: { url: URL; body: string }[];
  discovery: Discovery;
  /** Every directory found, by whatever found it, that gets the per-place checks (places.ts). */
  places?: Places;
  /** Whether a finding of `ruleId` (at `location`) was already filed. */
  found(ruleId: WebappRuleId, location?: string): boolean;
}

/** Alternates two lists, so that a cut-off keeps some of each. */
function interleave<T>(a: T[], b: T[]): T[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => [a[i], b[i]])
    .flat()
    .filter((x): x is T => x !== undefined);
}

/** The places the per-place checks run in: all found (places.ts), or those of the crawl alone. */
const directories = (scan: WebScan) =>
  scan.places?.list() ?? directoriesOf(knownUrls(scan.pages, scan.endpoints, scan.siteMaps), scan.start, 12);
/** Endpoints the probes exercise: the crawl's and the discovery's, alternately. */
const probed = (scan: WebScan) => interleave(scan.endpoints, scan.discovery.endpoints);

/** A place as findings name it: no query string (a landing URL may carry a token of its own). */
const placeOf = (url: URL) => `${url.origin}${url.pathname}`;

/** Every token the scan has seen where the app puts its own, the first sighting of each first. */
function tokenSightings(scan: WebScan): TokenSighting[] {
  const sightings: TokenSighting[] = [];
  for (const page of scan.pages) {
    sightings.push(...tokensOfAnswer(page.response, placeOf(page.requested ?? page.url)));
  }
  for (const call of scan.crawled?.apiCalls ?? []) {
    sightings.push(...tokensOfAnswer(call.response, placeOf(call.url)));
    const how = 'the Authorization header the app sends';
    sightings.push(
      ...tokensIn(call.headers.authorization ?? '').map((token) => ({
        token,
        location: placeOf(call.url),
        how,
      })),
    );
  }
  for (const item of scan.crawled?.storage ?? []) {
    const how = `${item.area}Storage "${item.key.slice(0, 40)}"`;
    const location = URL.canParse(item.page) ? placeOf(new URL(item.page)) : scan.start.origin;
    sightings.push(...tokensIn(item.value).map((token) => ({ token, location, how })));
  }
  const session = scan.crawled?.session?.headers(scan.start) ?? {};
  for (const [name, value] of Object.entries(session)) {
    const how = `the scan session's ${name} header`;
    sightings.push(
      ...tokensIn(value).map((token) => ({ token, location: placeOf(new URL('/', scan.start)), how })),
    );
  }
  return sightings;
}

/** The site's own names, which developers sign with: its host's first label and its start page's title. */
/** Every cookie the app has set that the scan saw: its answers' Set-Cookie lines, then the session's jar. */
function cookieSightings(scan: WebScan): CookieSighting[] {
  const sightings: CookieSighting[] = [];
  for (const page of scan.pages) {
    sightings.push(...cookiesOfAnswer(page.response, `the answer of ${placeOf(page.requested ?? page.url)}`));
  }
  for (const call of scan.crawled?.apiCalls ?? []) {
    sightings.push(...cookiesOfAnswer(call.response, `the answer of ${placeOf(call.url)}`));
  }
  for (const cookie of scan.crawled?.session?.jar.getCookiesSync(scan.start.href) ?? []) {
    sightings.push({ name: cookie.key, value: cookie.value, seenIn: "the scan's session" });
  }
  return sightings;
}

function siteNames(scan: WebScan): string[] {
  const names = [scan.start.hostname.split('.')[0] ?? ''];
  const title = /<title[^>]*>([^<]{1,60})</i.exec(scan.pages[0]?.response.body.slice(0, 20_000) ?? '')?.[1];
  if (title) {
    const words = title
      .trim()
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .slice(0, 4);
    names.push(words.join(''), words.join('-'), words.join('_'), words.join(' '), ...words);
  }
  return names.filter((n) => /[a-z]/i.test(n)).slice(0, 8);
}

const tlsRuleIds = Object.keys(tlsRules) as TlsRuleId[];
const secretRules: WebappRuleId[] = ['web.secret.aws-key', 'web.secret.private-key', 'web.secret.token'];

export const webappChecks: readonly Check<WebScan>[] = [
  {
    id: 'web.transport',
    phase: 'transport',
    share: 5,
    category: 'active',
    rules: ['web.transport.cleartext', 'web.transport.no-https-redirect', ...tlsRuleIds],
    summary:
      'Reads the start page: plain HTTP without a redirect to HTTPS, and the TLS checks (protocols, suites, certificates) on the HTTPS port.',
    async run(scan, { report, incomplete }) {
      const { client, policy, start } = scan;
      const first = await reachTarget(client, start, incomplete);
      const location = first ? header(first, 'location') : undefined;
      const next = location ? new URL(location, start) : null;
      if (next?.protocol === 'https:' && next.hostname === start.hostname && start.protocol === 'http:') {
        scan.start = new URL(next.href);
      } else if (first && start.protocol === 'http:') {
        const resolved = await policy.resolve(start.hostname);
        // HTTPS on the standard port next to plain HTTP means users could be on TLS but are not sent there.
        const httpsNextDoor = (start.port === '' || start.port === '80') && (await speaksTls(resolved, 443));
        report([
          httpsNextDoor
            ? webappFinding('web.transport.no-https-redirect', {
                location: start.href,
                evidence: `HTTP ${first.status} without redirect; HTTPS answers on port 443`,
              })
            : webappFinding('web.transport.cleartext', {
                location: start.href,
                evidence: `served over plain HTTP (HTTP ${first.status}); no HTTPS redirect`,
              }),
        ]);
      }
      if (scan.start.protocol === 'https:') {
        const resolved = await policy.resolve(scan.start.hostname);
        report(
          await tlsFindings(
            resolved,
            Number(scan.start.port || 443),
            scan.start.origin,
            // TLS probes are connections to the customer's server too: they take turns of its rate limit.
            { signal: client.signal, pace: () => client.turn() },
          ),
        );
      }
    },
  },
  {
    id: 'web.site-maps',
    phase: 'robots & sitemap',
    share: 2,
    category: 'passive',
    rules: [],
    summary: 'Reads robots.txt and the sitemaps it names, for paths to crawl and to look into.',
    async run(scan) {
      scan.siteMaps = await readSiteMaps(scan.client, scan.start);
    },
  },
  {
    id: 'web.crawl',
    phase: 'crawl',
    share: 25,
    // Active: the rendered crawl fills and sends the forms it finds (never deletions, payments or the login).
    category: 'active',
    rules: [
      'web.header.csp-missing',
      'web.header.hsts-missing',
      'web.header.nosniff-missing',
      'web.header.referrer-policy-missing',
      'web.header.permissions-policy-missing',
      'web.clickjacking',
      'web.cookie.secure-missing',
      'web.cookie.httponly-missing',
      'web.cookie.samesite-missing',
      'web.disclosure.server-version',
      'web.disclosure.powered-by',
      'web.disclosure.generator',
      'web.mixed-content',
      ...secretRules,
    ],
    summary:
      "Crawls the site (HTML, and pages that run scripts rendered in Chromium, logged in when the target has a login); judges every page's headers, cookies and content.",
    async run(scan, { tick, signal, report, incomplete }) {
      const crawled = await runCrawl({
        client: scan.client,
        start: scan.start,
        limits: webappLimits,
        browser: chooseBrowser(scan.options.browser),
        ...(scan.siteMaps ? { seeds: scan.siteMaps.seeds } : {}),
        ...(scan.options.login ? { login: scan.options.login } : {}),
        allowIntrusive: scan.options.allowIntrusive ?? false,
        signal,
        tick,
      });
      scan.crawled = crawled;
      ({ pages: scan.pages, endpoints: scan.endpoints } = crawled);
      // Rendering that stopped early (the browser over its memory cap) or pages the browser cut short
      // leave the scan partial, saying so (crawl.cut and crawl.stopped tell the rest).
      const rendering = crawled.report;
      if (rendering.stopped && !signal.aborted) {
        incomplete(`rendering stopped: ${rendering.stopped}`);
      } else if (rendering.cut_total) {
        incomplete(`${rendering.cut_total} page(s) cut short in the browser (${rendering.cut![0]!.reason})`);
      }
      report(headerFindings(scan.pages));
      scan.pages.forEach((page) => report(secretFindings(page.url.href, page.response.body)));
    },
  },
  {
    id: 'web.scripts',
    phase: 'scripts',
    share: 5,
    category: 'passive',
    rules: ['web.vulnerable-library', ...secretRules],
    summary:
      "Reads the site's own scripts (and names the others by URL): known-vulnerable library versions, secrets.",
    async run(scan, { tick, report }) {
      const scripts = new Map<string, string>();
      for (const page of scan.pages) {
        for (const script of page.facts?.scripts ?? []) {
          if (script.src) {
            scripts.set(script.src.href, page.url.href);
          } else {
            report(libraryFindings(page.url.href, '', script.inline));
          }
        }
      }
      const list = [...scripts.keys()].slice(0, webappLimits.maxScripts);
      let done = 0;
      await forEachLimit(list, 4, async (src) => {
        // Guard: only same-origin scripts are fetched; third-party hosts are judged by URL alone.
        const body =
          new URL(src).origin === scan.start.origin ? ((await scan.client.tryRequest(src))?.body ?? '') : '';
        scan.scripts.push({ url: new URL(src), body });
        report(libraryFindings(src, src, body));
        report(secretFindings(src, body));
        tick(++done, list.length);
      });
    },
  },
  {
    id: 'web.csrf',
    phase: 'forms & tokens',
    share: 1,
    category: 'passive',
    rules: ['web.csrf.missing-token'],
    summary:
      "Logged in with a cookie session: the crawled POST forms without an anti-forgery token (hidden field or a page's csrf-token meta tag) while no session cookie is SameSite=Lax or Strict. Login, sign-up, logout and search forms are left alone; nothing is sent.",
    run(scan, { report }) {
      const session = scan.crawled?.session;
      if (session && session.login.kind !== 'header') {
        report(
          csrfFindings(scan.pages, scan.start.origin, sessionCookiesOf(session, scan.start, scan.pages)),
        );
      }
      return Promise.resolve();
    },
  },
  {
    id: 'web.jwt',
    phase: 'forms & tokens',
    share: 1,
    category: 'passive',
    rules: ['web.auth.jwt-unsigned', 'web.auth.jwt-weak-secret'],
    summary:
      'The JSON Web Tokens the app issues (its cookies, JSON answers and headers, the login\'s among them; the Authorization header and web storage of its pages; the scan\'s session): unsigned ("alg": "none"), or HMAC-signed with one of a few hundred well-known keys or the site\'s name. Nothing is sent.',
    run(scan, { report }) {
      report(jwtFindings(tokenSightings(scan), siteNames(scan)));
      return Promise.resolve();
    },
  },
  {
    id: 'web.signed-cookies',
    phase: 'forms & tokens',
    share: 1,
    category: 'passive',
    rules: ['web.auth.session-cookie-forgeable', 'web.auth.cookie-weak-secret'],
    summary:
      "The cookies the app signs (its answers' Set-Cookie lines and the scan session's cookies), by the signing scheme their shape shows: express-session's and cookie-parser's `s:` cookies, Keygrip's `.sig` cookies (cookie-session, Koa), Flask's itsdangerous session. Signed with one of a few hundred well-known keys or the site's name: a session anyone can write when the cookie holds it, a signature that protects nothing otherwise. Nothing is sent.",
    run(scan, { report }) {
      report(signedCookieFindings(cookieSightings(scan), siteNames(scan), placeOf(new URL('/', scan.start))));
      return Promise.resolve();
    },
  },
  {
    id: 'web.password-exposure',
    phase: 'forms & tokens',
    share: 1,
    category: 'passive',
    rules: ['web.api.password-hashes'],
    summary:
      "Logged in: the JSON the app fetched only in the login session, and the JSON pages the crawl read, carrying accounts' passwords or password hashes (a record naming a person with a password field that holds one; the hash formats named, never a value). Nothing is sent.",
    run(scan, { report }) {
      report(
        passwordExposureFindings(scan.crawled?.apiCalls ?? [], scan.pages, Boolean(scan.crawled?.session)),
      );
      return Promise.resolve();
    },
  },
  {
    id: 'web.single-page-app',
    phase: 'single-page app',
    share: 5,
    category: 'active',
    rules: [
      'web.xss.dom',
      'web.api.nosniff-missing',
      'web.api.cache-control-missing',
      'web.auth.token-in-storage',
      'web.auth.api-without-session',
      'web.auth.idor',
      'web.auth.jwt-unverified',
      'web.exposed.source-map',
    ],
    summary:
      "What only rendering shows: DOM XSS proven by a payload that runs, the app's API answers, what the login session protects, tokens in web storage, source maps.",
    async run(scan, { tick, report }) {
      if (scan.crawled) {
        report(await spaFindings(scan.client, scan.crawled, tick));
      }
    },
  },
  {
    id: 'web.discovery',
    phase: 'discovery',
    share: 5,
    category: 'active',
    rules: ['web.api.personal-data', 'web.graphql.introspection'],
    summary:
      'Endpoints beyond links: paths in scripts, OpenAPI documents, API indexes and GraphQL; personal data they give anyone.',
    async run(scan, { tick, report }) {
      scan.discovery = await discoverEndpoints(
        scan.client,
        scan.start,
        {
          pages: scan.pages,
          scripts: scan.scripts,
          known: scan.endpoints,
        },
        { maxResources: webappLimits.maxDiscovered },
        tick,
      );
      report(scan.discovery.findings);
    },
  },
  {
    id: 'web.places',
    phase: 'places',
    share: 2,
    category: 'active',
    rules: ['web.api.personal-data'],
    summary:
      'Gathers every directory found (pages, links, sitemaps, robots.txt, scripts, API documents) and the common directories and API roots of a short wordlist that the site has, judged against its own missing-directory answer, for the per-place checks; personal data those give anyone.',
    async run(scan, { tick, report }) {
      scan.places = await findPlaces(
        scan.client,
        scan.start,
        {
          linked: knownUrls(scan.pages, scan.endpoints, scan.siteMaps),
          discovered: [...scan.discovery.endpoints.map((e) => e.url), ...scan.discovery.resources],
        },
        { maxRequests: webappLimits.maxPlaceRequests, tick },
      );
      report(scan.places.findings);
    },
  },
  {
    id: 'web.exposed-files',
    phase: 'exposed files',
    share: 20,
    category: 'active',
    rules: [
      'web.exposed.git',
      'web.exposed.env',
      'web.exposed.ds-store',
      'web.exposed.backup',
      'web.exposed.server-status',
      'web.exposed.phpinfo',
      'web.exposed.debug',
      'web.exposed.metrics',
      'web.exposed.actuator',
      'web.directory-listing',
      'web.robots.sensitive-path',
      'web.disclosure.header-path',
    ],
    summary:
      "Files that should not be served (repositories, environment files, backups, dumps, status and debug pages) and listings, judged against each directory's own 404.",
    async run(scan, { tick, report }) {
      report(
        await exposedFileFindings(scan.client, scan.start, scan.pages, tick, {
          endpoints: scan.endpoints,
          ...(scan.siteMaps ? { siteMaps: scan.siteMaps } : {}),
          ...(scan.places
            ? { places: scan.places.list(), onListed: (dirs: URL[]) => scan.places?.add(dirs, 'listed') }
            : {}),
        }),
      );
    },
  },
  {
    id: 'web.api-docs',
    phase: 'exposed files',
    share: 1,
    category: 'passive',
    rules: ['web.exposed.api-docs'],
    summary:
      'OpenAPI / Swagger documents and documentation pages (Swagger UI, ReDoc, RapiDoc) at their common paths, at the root and under /api/, without the login; one finding for the site naming every place.',
    async run(scan, { tick, report }) {
      report(apiDocsFindings(scan.start, await findApiDocuments(scan.client, scan.start, tick)));
    },
  },
  {
    id: 'web.dav-methods',
    phase: 'write methods',
    share: 1,
    category: 'active',
    rules: ['web.webdav.listing', 'web.method.trace'],
    summary:
      'TRACE at the root, and a WebDAV listing (PROPFIND) of each known directory that advertises WebDAV, without the login.',
    async run(scan, { tick, report }) {
      report(
        await writeMethodFindings(scan.client, scan.start, directories(scan), tick, {
          read: true,
          write: false,
        }),
      );
    },
  },
  {
    id: 'web.write-methods',
    phase: 'write methods',
    share: 3,
    // Intrusive: a WebDAV write is proven by writing a marker file, and deleting it.
    category: 'intrusive',
    rules: ['web.webdav.write'],
    summary:
      'WebDAV and PUT in each known directory (a marker file written, read back and deleted), without the login: what anyone may write.',
    async run(scan, { tick, report }) {
      report(
        await writeMethodFindings(scan.client, scan.start, directories(scan), tick, {
          read: false,
          write: true,
        }),
      );
    },
  },
  // Stored XSS, writes without a session, mass assignment (intrusive; write/checks.ts).
  ...writeChecks,
  {
    id: 'web.method-bypass',
    phase: 'write methods',
    share: 1,
    category: 'active',
    rules: ['web.auth.method-bypass'],
    summary: 'Pages that refuse GET but give their content to another method (HEAD, POST, a made-up verb).',
    async run(scan, { report }) {
      report(await methodBypassFindings(scan.client, scan.pages, () => undefined));
    },
  },
  {
    id: 'web.cors',
    phase: 'cors',
    share: 5,
    category: 'active',
    rules: ['web.cors.reflected-origin', 'web.cors.null-origin'],
    summary: 'Sends a foreign and a null Origin to pages and discovered resources and reads what they allow.',
    async run(scan, { tick, report }) {
      const candidates = [
        ...new Set([
          ...[scan.start.href, ...scan.pages.map((page) => page.url.href)].slice(0, 12),
          ...scan.discovery.resources.slice(0, 12).map((url) => url.href),
          // Every place found beyond the pages: an API root's CORS policy is often its own.
          ...directories(scan)
            .filter((dir) => dir.pathname !== '/')
            .map((dir) => dir.href),
        ]),
      ];
      let done = 0;
      for (const href of candidates) {
        const result = await probeCors(scan.client, new URL(href));
        if (result.reflected) {
          report([
            webappFinding('web.cors.reflected-origin', { location: href, evidence: result.reflected }),
          ]);
        }
        if (result.nullOrigin) {
          report([webappFinding('web.cors.null-origin', { location: href, evidence: result.nullOrigin })]);
        }
        tick(++done, candidates.length);
      }
    },
  },
  {
    id: 'web.api-cors',
    phase: 'api cors',
    share: 2,
    category: 'active',
    rules: ['web.cors.wildcard'],
    summary: 'APIs that answer any origin with `Access-Control-Allow-Origin: *` where that exposes data.',
    async run(scan, { tick, report }) {
      const seen = scan.pages.map((page) => ({ url: page.url, response: page.response }));
      report(
        await corsWildcardFindings(
          scan.client,
          apiCandidates(seen, [...knownUrls([], scan.endpoints, scan.siteMaps), ...directories(scan)]),
          tick,
        ),
      );
    },
  },
  {
    id: 'web.probes',
    phase: 'active probes',
    share: 15,
    category: 'active',
    rules: ['web.xss.reflected', 'web.sqli.error', 'web.open-redirect'],
    summary:
      'Each parameter with a marker, a quote and a foreign URL: reflected XSS, SQL errors, open redirects.',
    async run(scan, { tick, report }) {
      report(await probeFindings(scan.client, probed(scan), tick));
    },
  },
  {
    id: 'web.injection',
    phase: 'injection',
    share: 20,
    category: 'active',
    rules: [
      'web.sqli.boolean',
      'web.sqli.time',
      'web.path-traversal',
      'web.ssti',
      'web.code-injection',
      'web.command-injection',
      'web.error.verbose',
    ],
    summary:
      "Differential probes per parameter (query, form and JSON, any method): blind SQL injection (boolean and time), path traversal, template, code and command injection; a stack trace a probe's answer shows and the original value's does not.",
    async run(scan, { tick, report, incomplete }) {
      const { skipped, untimed } = await injectionFindings(scan.client, probed(scan), {
        maxParams: webappLimits.maxInjectionParams,
        requestsLeft: webappLimits.maxRequests - scan.client.requests,
        sqlKnown: (location) => scan.found('web.sqli.error', location),
        verboseKnown: (location) => scan.found('web.error.verbose', location),
        onFinding: (finding) => report([finding]),
        onProgress: tick,
      });
      // Parameters left unprobed for want of budget, or that the time-based checks could not time, make
      // the scan partial, saying so: a clean result there would prove nothing.
      if (skipped > 0) {
        incomplete(`${skipped} parameter(s) left unprobed: the scan's request budget ran out`);
      }
      if (untimed.length > 0) {
        incomplete(untimedNote(untimed));
      }
    },
  },
  {
    id: 'web.nosqli',
    phase: 'injection',
    share: 5,
    category: 'active',
    rules: ['web.nosqli'],
    summary:
      'NoSQL operator injection per parameter (query, form and JSON): `$ne`/`$gt` against the literal and `$in` of nothing, boolean-style, and MongoDB-style errors; read-only operators, never `$where`.',
    async run(scan, { tick, report, incomplete }) {
      const { skipped } = await nosqlFindings(scan.client, probed(scan), {
        maxParams: webappLimits.maxInjectionParams,
        requestsLeft: webappLimits.maxRequests - scan.client.requests,
        onFinding: (finding) => report([finding]),
        onProgress: tick,
      });
      if (skipped > 0) {
        incomplete(`${skipped} endpoint(s) left without the NoSQL probes: the scan's request budget ran out`);
      }
    },
  },
  {
    id: 'web.xxe',
    phase: 'xxe',
    share: 2,
    // Active: the app itself POSTs XML there, and reading a file through the parser is a read, like the
    // injection probes.
    category: 'active',
    rules: ['web.xxe'],
    summary:
      'POSTs a small XML document declaring an external entity that reads /etc/passwd (and, failing that, a parameter entity whose parse error would quote it) to each place the app itself sent XML (ten at most), each beside a control with a harmless internal entity: a passwd line only the probe brings back is XXE. No network entities, no entity expansion.',
    async run(scan, { tick, signal, report, incomplete }) {
      const places = xmlPlaces(scan.start, scan.pages, scan.crawled?.apiCalls ?? []).filter(
        (place) => place.template !== undefined,
      );
      const unjudged: string[] = [];
      report(
        await xxeFindings(scan.client, places, tick, signal, (at, why) => unjudged.push(`${at} (${why})`)),
      );
      if (unjudged.length > 0) {
        incomplete(xxeUnjudgedNote(unjudged));
      }
    },
  },
  {
    id: 'web.xxe-upload',
    phase: 'xxe',
    share: 1,
    // Intrusive: an uploaded file may be kept, and a document POSTed where the app only ever read XML (a
    // feed, a collection) may be stored as a new item.
    category: 'intrusive',
    rules: ['web.xxe'],
    summary:
      "Uploads the same XML control and probe as small .xml files to each POST form with a file field, and to up to three upload paths the site's scripts name (no login or password forms), and POSTs them to the places that only answered XML to a GET (ten at most each): a passwd line only the probe brings back is XXE.",
    async run(scan, { tick, signal, report, incomplete }) {
      const answered = xmlPlaces(scan.start, scan.pages, scan.crawled?.apiCalls ?? []).filter(
        (place) => place.template === undefined,
      );
      const unjudged: string[] = [];
      report(
        await xxeFindings(
          scan.client,
          [...uploadPlaces(scan.start, scan.pages, scan.scripts), ...answered],
          tick,
          signal,
          (at, why) => unjudged.push(`${at} (${why})`),
        ),
      );
      if (unjudged.length > 0) {
        incomplete(xxeUnjudgedNote(unjudged));
      }
    },
  },
  {
    id: 'web.deserialization',
    phase: 'deserialization',
    share: 2,
    category: 'active',
    rules: ['web.deserialization'],
    summary:
      "Parameters and cookies the app itself filled with serialized data (JSON, or base64 of JSON or of a Python pickle), ten of each at most, sent back in the same encoding: a node-serialize function whose computed result comes back (returned, or thrown into the error page), or a pickle that calls time.sleep, judged like the blind injections' delays.",
    async run(scan, { tick, report, incomplete, signal }) {
      const carriers = serializedCarriers(scan.client, probed(scan), scan.pages, new TimingLane());
      incompleteIfUntimed(
        await deserializationFindings(carriers, {
          intrusive: false,
          onFinding: (f) => report([f]),
          onProgress: tick,
          signal,
        }),
        incomplete,
      );
    },
  },
  {
    id: 'web.deserialization-intrusive',
    phase: 'deserialization',
    share: 1,
    // Intrusive: node's busy wait holds the app's only thread for seconds, and an uploaded file may be kept.
    category: 'intrusive',
    rules: ['web.deserialization'],
    summary:
      'Uploads to each POST form with a file field (ten at most) a JSON file with node-serialize functions (their result returned or thrown, then a busy wait), a pickle and a YAML document that call time.sleep; and the busy wait in the serialized parameters and cookies the first pass found nothing in.',
    async run(scan, { tick, report, incomplete, signal }) {
      const lane = new TimingLane();
      // The first pass tried pickles fully, and JSON carriers by output: those it found nothing in still
      // lack node's busy wait.
      const waitable = serializedCarriers(scan.client, probed(scan), scan.pages, lane)
        .filter((c) => c.format !== 'base64-pickle' && !scan.found('web.deserialization', c.probe.location))
        .map((c) => ({ ...c, echoed: true }));
      const carriers = [
        ...uploadCarriers(scan.client, uploadPlaces(scan.start, scan.pages, scan.scripts), lane),
        ...waitable,
      ];
      incompleteIfUntimed(
        await deserializationFindings(carriers, {
          intrusive: true,
          onFinding: (f) => report([f]),
          onProgress: tick,
          signal,
        }),
        incomplete,
      );
    },
  },
  {
    id: 'web.reset-rate-limit',
    phase: 'error pages',
    share: 1,
    // Intrusive: each reset request may write a reset token or queue an e-mail (to an address under
    // example.invalid, which never resolves), which is more than a counter.
    category: 'intrusive',
    rules: ['web.auth.no-reset-rate-limit'],
    summary: `Each password-reset form or JSON reset request (forgot/reset/recover, one e-mail or user name field, no password; three at most): ${LOGIN_ATTEMPTS} reset requests for one made-up account under example.invalid, without the session; no 429, Retry-After or RateLimit header, CAPTCHA or slow-down is a finding.`,
    async run(scan, { tick, report }) {
      const forms = scan.pages.flatMap((page) => page.facts?.forms ?? []);
      report(await resetRateLimitFindings(scan.client, forms, probed(scan), tick));
    },
  },
  {
    id: 'web.reset-tokens',
    phase: 'error pages',
    share: 1,
    category: 'active',
    rules: ['web.auth.predictable-reset-token'],
    summary:
      "Logged in with a login form: the page a password-reset link opens (a crawled path that reads as one, else ten usual paths), asked without the session for the scan's own account with tokens derived from its name (MD5, SHA-1, SHA-256, base64, hex, the name) and with a random one: a new-password form opened by a derived token and not by the random one is a finding. GET only: nothing is submitted.",
    async run(scan, { tick, report }) {
      const login = scan.crawled?.session?.login;
      if (login?.kind === 'form') {
        const crawled = knownUrls(scan.pages, scan.endpoints, scan.siteMaps);
        report(await resetTokenFindings(scan.client, scan.start, crawled, login.username, tick));
      }
    },
  },
  {
    id: 'web.error-pages',
    phase: 'error pages',
    share: 5,
    category: 'active',
    rules: ['web.error.verbose'],
    summary:
      'Malformed requests to each directory and endpoint (GET), and a malformed JSON body with POST, PATCH and DELETE to made-up paths: stack traces and internals in the error.',
    async run(scan, { tick, report }) {
      report(
        await errorPageFindings(scan.client, directories(scan), scan.endpoints, tick, (location) =>
          scan.found('web.error.verbose', location),
        ),
      );
      report(await methodErrorFindings(scan.client, scan.start, directories(scan), tick));
    },
  },
  {
    id: 'web.login-rate-limit',
    phase: 'error pages',
    share: 1,
    category: 'active',
    rules: ['web.auth.no-login-rate-limit'],
    summary: `Each login form or JSON login the app posted to (one password field; three at most), the scan's own login form included: ${LOGIN_ATTEMPTS} failed logins for a made-up account, without the session; no 429, Retry-After or RateLimit header, CAPTCHA or slow-down is a finding. Runs last.`,
    // Last of all checks: a limit per client address that these failed logins trip (express-rate-limit
    // counts every login, whoever it is for) must not refuse a later check's renewal of the scan's session.
    async run(scan, { tick, report }) {
      const forms = scan.pages.flatMap((page) => page.facts?.forms ?? []);
      report(
        await loginRateLimitFindings(
          scan.client,
          [...forms, ...(await ownLoginForms(scan.client, scan.options.login, forms))],
          probed(scan),
          tick,
        ),
      );
    },
  },
];

/** A deserialization pass's places it could not time make the scan partial, named. */
function incompleteIfUntimed(untimed: readonly Untimed[], incomplete: (why: string) => void): void {
  if (untimed.length > 0) {
    incomplete(untimedNote(untimed, 'deserialization', 'place(s)'));
  }
}
