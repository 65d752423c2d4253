// Paths a site names without linking them: robots.txt entries that sound sensitive, and paths in
// response headers (X-Debug-Token-Link, SourceMap, Link relations, custom X- headers). Each is probed
// and reported only when anyone can open it (200, not the catch-all page, not a login form).
import type { Finding } from '../../../shared/findings.ts';
import { header } from '../core/http-client.ts';
import type { Page } from './crawl.ts';
import type { FileProbe } from './file-probe.ts';
import { webappFinding } from './rules.ts';

const sensitiveWords = new Set(
  'admin administrator administration backup backups bak old private secret secrets confidential config conf configuration setup install installer db database dump dumps sql internal intranet staging stage dev test tmp temp log logs debug phpmyadmin pma adminer manager management console cpanel credentials password passwords keys export exports archive archives hidden staff git svn env'.split(
    ' ',
  ),
);

/** True when a path segment is a sensitive word ("/old-site/" and "/db_backup/" count, "/folder/" does not). */
export function soundsSensitive(path: string): boolean {
  return path
    .toLowerCase()
    .split(/[/._-]+/)
    .some((word) => sensitiveWords.has(word));
}

/** Anything but an empty body or a login form: a path behind a login is protected, not open. */
const openContent = (body: string) =>
  body.trim().length > 0 && !/<input[^>]+type\s*=\s*["']?password/i.test(body);

export function robotsProbes(disallowed: URL[]): FileProbe[] {
  return disallowed
    .filter((url) => soundsSensitive(url.pathname))
    .slice(0, 20)
    .map((url) => ({
      url,
      rule: 'web.robots.sensitive-path' as const,
      signature: openContent,
      describe: (body: string) =>
        `robots.txt disallows ${url.pathname}, yet it answers with content (${/<title>([^<]{1,60})/i.exec(body)?.[1]?.trim() ?? 'no title'})`,
    }));
}

/**
 * robots.txt entries, whatever their name, whose directory lists its files to anyone (`listed`: the
 * directories the listing check reported): the entry points at exactly what it means to hide. Entries whose
 * name sounds sensitive are left to robotsProbes, which opens them whatever they hold.
 */
export function robotsListed(disallowed: URL[], listed: Set<string>): Finding[] {
  return disallowed
    .filter((url) => !soundsSensitive(url.pathname) && url.pathname !== '/')
    .flatMap((url) => {
      const dir = new URL(url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`, url);
      return listed.has(dir.href)
        ? [
            webappFinding('web.robots.sensitive-path', {
              location: url.href,
              evidence: `robots.txt disallows ${url.pathname}, yet ${dir.pathname} lists its files to anyone`,
            }),
          ]
        : [];
    })
    .slice(0, 20);
}

/** Headers that never name a hidden path worth probing (or name it in a way we already follow). */
const ignoredHeaders = new Set([
  'location',
  'content-location',
  'set-cookie',
  'content-security-policy',
  'content-security-policy-report-only',
  'report-to',
  'reporting-endpoints',
  'nel',
  'date',
  'last-modified',
  'expires',
  'etag',
  'content-type',
]);
const ignoredRelations =
  /\brel="?(stylesheet|preload|prefetch|modulepreload|preconnect|dns-prefetch|icon|canonical|alternate|next|prev|shortlink)\b/i;

export interface HeaderPath {
  url: URL;
  header: string;
  value: string;
  page: URL;
}

/** Same-origin paths that response headers of crawled pages name, and that no crawled page links to. */
export function headerPaths(pages: Page[], start: URL): HeaderPath[] {
  const linked = new Set(
    pages.flatMap((p) => [p.url.pathname, ...(p.facts?.links ?? []).map((l) => l.pathname)]),
  );
  const found = new Map<string, HeaderPath>();
  for (const page of pages) {
    for (const name of Object.keys(page.response.headers)) {
      if (ignoredHeaders.has(name)) {
        continue;
      }
      const value = header(page.response, name) ?? '';
      const parts =
        name === 'link' ? value.split(/,(?=\s*<)/).filter((part) => !ignoredRelations.test(part)) : [value];
      for (const part of parts) {
        for (const match of part.matchAll(
          /(?:^|[\s<"'=;,(])((?:https?:\/\/[^\s/>"';,]+)?\/[\w\-./~%]*[\w\-~%/])/g,
        )) {
          const url = new URL(match[1]!, page.url);
          // A per-request token as the last segment (Symfony's profiler) would make the location change each run.
          url.pathname = url.pathname.replace(/\/[0-9a-f]{6,}$/i, '/');
          url.search = '';
          if (
            url.origin === start.origin &&
            url.pathname !== '/' &&
            !linked.has(url.pathname) &&
            !found.has(url.href)
          ) {
            found.set(url.href, { url, header: name, value: value.slice(0, 120), page: page.url });
          }
        }
      }
    }
  }
  return [...found.values()].slice(0, 10);
}

export function headerPathProbes(paths: HeaderPath[]): FileProbe[] {
  return paths.map(({ url, header: name, value, page }) => ({
    url,
    rule: 'web.disclosure.header-path' as const,
    signature: openContent,
    describe: () =>
      `${name}: ${value} (on ${page.pathname}) names ${url.pathname}, which no page links to and which answers with content`,
  }));
}
