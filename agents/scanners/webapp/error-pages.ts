// Verbose error pages: a malformed path or parameter makes the application fail, and a badly configured
// one shows the stack trace, its debug page, or its framework and version. Differential: what the
// normal request already shows is never blamed on the malformed one.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { findStackTrace, versionsNamed } from '../core/stack-trace.ts';
import type { Endpoint } from './crawl.ts';
import { webappFinding } from './rules.ts';

/** Paths that trip URL decoders and routers: a lone %, a NUL, brackets, a bad UTF-8 sequence. */
const malformedPaths = ['%', 'vigil%00.html', 'vigil[', 'vigil%c0%ae%c0%ae/', 'vigil-missing-page'];

/** Values that break parsers expecting one string: PHP arrays, a lone %, a NUL. */
const malformedValues: { label: string; raw: (name: string) => string }[] = [
  { label: '[]', raw: (name) => `${encodeURIComponent(name)}%5B%5D=1` },
  { label: '%', raw: (name) => `${encodeURIComponent(name)}=%` },
  { label: '%00', raw: (name) => `${encodeURIComponent(name)}=%00` },
];

/** Header values that name server software: headers disclose them already, so an error page adds nothing. */
const headerVersions = (r: HttpResponse) =>
  ['server', 'x-powered-by', 'x-aspnet-version'].map((n) => header(r, n) ?? '').join(' ');

/** What the error page shows that the normal answer did not; null when nothing. */
function disclosure(provoked: HttpResponse, normal: HttpResponse | null): string | null {
  const trace = findStackTrace(provoked.body);
  if (trace && !(normal && findStackTrace(normal.body))) {
    const versions = versionsNamed(provoked.body);
    return `stack trace or debug page: "${trace}"${versions.length ? `; names ${versions.join(', ')}` : ''}`;
  }
  if (provoked.status >= 400) {
    const shown = headerVersions(provoked);
    const versions = versionsNamed(provoked.body).filter(
      (v) => !shown.includes(v.split('/')[1] ?? v) && !(normal && normal.body.includes(v)),
    );
    if (versions.length > 0) {
      return `the error page names ${versions.join(', ')}, which the response headers do not`;
    }
  }
  return null;
}

function withQuery(url: URL, query: string): URL {
  const out = new URL(url);
  out.search = `?${query}`;
  return out;
}

export async function errorPageFindings(
  client: HttpClient,
  directories: URL[],
  endpoints: Endpoint[],
  tick: (done: number, total: number) => void,
  /** Places already reported (the injection probes' answers showed a trace there): not probed again. */
  known: (location: string) => boolean = () => false,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  /** Malformed-path disclosures by the directory that showed them. */
  const byDirectory = new Map<string, Finding>();
  const getEndpoints = endpoints.filter((e) => e.method === 'GET').slice(0, 12);
  const total = directories.length + getEndpoints.length;
  let done = 0;
  await forEachLimit(
    directories,
    4,
    async (dir) => {
      const normal = await client.tryRequest(dir);
      for (const path of malformedPaths) {
        const url = new URL(dir.href + path);
        const provoked = await client.tryRequest(url);
        const what = provoked ? disclosure(provoked, normal) : null;
        if (provoked && what) {
          byDirectory.set(
            dir.href,
            webappFinding('web.error.verbose', {
              location: url.href,
              evidence: `GET ${url.pathname} (malformed path) answered HTTP ${provoked.status}; ${what}`,
            }),
          );
          break;
        }
      }
      tick(++done, total);
    },
    client.signal,
  );
  // One handler answers a directory and everything below it: a subdirectory that discloses the same way
  // as a directory above it is that same finding, not another.
  for (const [dir, finding] of byDirectory) {
    if (![...byDirectory.keys()].some((other) => other !== dir && dir.startsWith(other))) {
      findings.push(finding);
    }
  }
  await forEachLimit(
    getEndpoints,
    4,
    async (endpoint) => {
      const base = new URL(endpoint.url);
      base.search = '';
      const normal = await client.tryRequest(endpoint.url);
      search: for (const param of endpoint.params.slice(0, 4)) {
        if (known(`${base.href}?${param}=`)) {
          continue;
        }
        for (const value of malformedValues) {
          const others = endpoint.params
            .filter((p) => p !== param)
            .map(
              (p) =>
                `${encodeURIComponent(p)}=${encodeURIComponent(endpoint.url.searchParams.get(p) ?? 'test')}`,
            );
          const url = withQuery(base, [value.raw(param), ...others].join('&'));
          const provoked = await client.tryRequest(url);
          const what = provoked ? disclosure(provoked, normal) : null;
          if (provoked && what) {
            findings.push(
              webappFinding('web.error.verbose', {
                location: `${base.href}?${param}=`,
                evidence: `${param}=${value.label} (malformed parameter) answered HTTP ${provoked.status}; ${what}`,
              }),
            );
            break search;
          }
        }
      }
      tick(++done, total);
    },
    client.signal,
  );
  return findings;
}

/**
 * Methods that carry a body, each sent with a malformed one; DELETE too (frameworks parse its body alike).
 * Never PUT: a server that stores whatever is PUT (WebDAV) would keep our body as a file, and writing is
 * for intrusive checks only, with the owner's consent. Frameworks parse PUT's body as they parse POST's.
 */
const bodyMethods = ['POST', 'PATCH', 'DELETE'] as const;
/** A JSON body cut short: what a body parser placed before the routes (Express's express.json()) throws on. */
const brokenJson = '{"vigil": ';

/**
 * Error handling on every method: a malformed JSON body sent with POST, PATCH and DELETE to a path that
 * does not exist, under the root and the known directories (a made-up path: no route runs, so nothing on the
 * target changes; only what parses every request first, and the error handler, answer). A stack trace or a
 * debug page that the same path's GET answer does not show is the error handler's, a server-wide cause:
 * one finding at the site's root naming every method and place that showed it. A made-up path that accepts
 * a malformed body (2xx) takes anything sent there: it is sent no other method.
 */
export async function methodErrorFindings(
  client: HttpClient,
  start: URL,
  directories: URL[],
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const root = new URL('/', start);
  const bases = [root, ...directories.filter((d) => d.href !== root.href)].slice(0, 6);
  const shown: string[] = [];
  let first = null as string | null;
  let done = 0;
  await forEachLimit(
    bases,
    2,
    async (base) => {
      const url = new URL(`vigil-${randomBytes(4).toString('hex')}`, base);
      // Without the login of an authenticated scan: the error handler is the same for everyone.
      const normal = await client.tryRequest(url, { anonymous: true });
      for (const method of bodyMethods) {
        const provoked = await client.tryRequest(url, {
          anonymous: true,
          method,
          body: brokenJson,
          // Node frames no body of its own for DELETE: the length says there is one.
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(brokenJson)),
          },
          // Guard: a made-up path, never followed elsewhere; a redirect is an answer like any other.
          followRedirects: 'none',
        });
        const what = provoked ? disclosure(provoked, normal) : null;
        if (provoked && what) {
          shown.push(`${method} ${url.pathname} (HTTP ${provoked.status})`);
          first ??= what;
        }
        // Guard: a made-up path that accepts the request takes requests there; send it nothing more.
        if (provoked && provoked.status >= 200 && provoked.status < 300) {
          break;
        }
      }
      tick(++done, bases.length);
    },
    client.signal,
  );
  if (shown.length === 0 || first === null) {
    return [];
  }
  return [
    webappFinding('web.error.verbose', {
      location: root.href,
      evidence: `a malformed JSON body sent to a path that does not exist: ${shown.slice(0, 12).join(', ')}${shown.length > 12 ? ` and ${shown.length - 12} more` : ''}; ${first}`,
    }),
  ];
}
