// Same-origin breadth-first crawl within page, depth and request limits. Collects the pages and the
// parameterised endpoints (links with query strings, GET/POST forms) that the probes then exercise.
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { isHtml, parseHtml } from './html.ts';
import type { HtmlFacts } from './html.ts';

export interface Page {
  url: URL;
  /**
   * The URL the crawl asked for, when redirects answered it at `url`: findings about the answer are
   * filed here, since a landing URL may change on every visit (a session token, a random path).
   */
  requested?: URL;
  response: HttpResponse;
  facts: HtmlFacts | null;
  depth: number;
}

export interface Endpoint {
  url: URL;
  method: 'GET' | 'POST';
  params: string[];
  /**
   * A POST the app sends as JSON: the body it sent, whose top-level fields are the params (a probe
   * replaces one, the others keep the app's values). Form-encoded when absent.
   */
  json?: Record<string, unknown>;
}

export interface CrawlLimits {
  maxPages: number;
  maxDepth: number;
}

const skipExtensions = /\.(png|jpe?g|gif|svg|ico|webp|woff2?|ttf|eot|mp4|mp3|pdf|zip|gz|css|js|map)$/i;

export function endpointKey(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.url.origin}${endpoint.url.pathname} ${[...endpoint.params].sort().join(',')}`;
}

export async function crawl(
  client: HttpClient,
  start: URL,
  limits: CrawlLimits,
  onPage: (done: number, total: number) => void,
  /** Same-origin URLs the site names without linking (robots.txt, sitemaps), crawled after the start page. */
  seeds: URL[] = [],
): Promise<{ pages: Page[]; endpoints: Endpoint[] }> {
  const pages: Page[] = [];
  const endpoints = new Map<string, Endpoint>();
  const seen = new Set<string>([start.href]);
  const queue: { url: URL; depth: number }[] = [{ url: start, depth: 0 }];
  for (const seed of seeds.filter((url) => url.origin === start.origin && !seen.has(url.href))) {
    seen.add(seed.href);
    queue.push({ url: seed, depth: 1 });
  }
  const addEndpoint = (endpoint: Endpoint) => {
    if (endpoint.params.length > 0 && endpoint.url.origin === start.origin) {
      endpoints.set(endpointKey(endpoint), endpoint);
    }
  };
  while (queue.length > 0 && pages.length < limits.maxPages && !client.signal?.aborted) {
    const { url, depth } = queue.shift()!;
    addEndpoint({ url, method: 'GET', params: [...url.searchParams.keys()] });
    const response = await client.tryRequest(url, { followRedirects: 'same-origin' });
    if (!response) {
      continue;
    }
    const finalUrl = new URL(response.url);
    const facts = isHtml(header(response, 'content-type'), response.body)
      ? parseHtml(response.body, finalUrl)
      : null;
    pages.push({
      url: finalUrl,
      response,
      facts,
      depth,
      ...(finalUrl.href === url.href ? {} : { requested: url }),
    });
    onPage(pages.length, Math.min(limits.maxPages, pages.length + queue.length));
    if (!facts || depth >= limits.maxDepth) {
      continue;
    }
    for (const form of facts.forms) {
      addEndpoint({ url: form.action, method: form.method, params: form.fields });
    }
    for (const link of [...facts.links, ...facts.forms.map((form) => form.action)]) {
      // Guard: the crawl never leaves the target's origin.
      if (link.origin !== start.origin || skipExtensions.test(link.pathname) || seen.has(link.href)) {
        continue;
      }
      seen.add(link.href);
      queue.push({ url: link, depth: depth + 1 });
    }
  }
  return { pages, endpoints: [...endpoints.values()] };
}
