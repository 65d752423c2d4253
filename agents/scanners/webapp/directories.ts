// The directories a scan knows of: those of crawled pages, form actions and endpoints, robots.txt and
// sitemap entries, each with its parents. File, method and error checks run in each, not only at the root.
import type { Endpoint, Page } from './crawl.ts';
import type { SiteMaps } from './site-maps.ts';

/** Directories of the given URLs and all their parents, root first, in order of discovery, at most `max`. */
export function directoriesOf(urls: URL[], origin: URL, max: number): URL[] {
  const dirs = new Set<string>(['/']);
  for (const url of urls.filter((u) => u.origin === origin.origin)) {
    const parts = url.pathname.split('/').slice(1, -1);
    for (let i = 1; i <= parts.length; i += 1) {
      dirs.add(`/${parts.slice(0, i).join('/')}/`);
    }
  }
  return [...dirs].slice(0, max).map((dir) => new URL(dir, origin));
}

/** Every same-site URL the crawl and the site's own maps named. */
export function knownUrls(pages: Page[], endpoints: Endpoint[], siteMaps?: SiteMaps): URL[] {
  return [
    ...pages.map((p) => p.url),
    ...endpoints.map((e) => e.url),
    ...(siteMaps?.seeds ?? []),
    ...(siteMaps?.disallowed ?? []),
  ];
}
