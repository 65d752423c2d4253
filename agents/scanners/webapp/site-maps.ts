// robots.txt and sitemap.xml: the paths a site names without linking them. Their URLs seed the crawl;
// robots.txt entries that sound sensitive are probed, and reported when anyone can open them.
import { gunzipSync } from 'node:zlib';

import type { HttpClient } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { archiveKind, looksHtml } from './file-signatures.ts';
import { fileProbeInit } from './soft404.ts';
import { xmlElementTexts } from './xml-text.ts';

export interface SiteMaps {
  /** Same-origin URLs named by robots.txt (Allow/Disallow, wildcards cut) and the sitemaps. */
  seeds: URL[];
  /** Paths robots.txt asks crawlers to avoid, as URLs. */
  disallowed: URL[];
  notes: string[];
}

const limits = { sitemaps: 6, urls: 300, seeds: 60 };

/** robots.txt lines: Allow/Disallow paths and Sitemap URLs; null when the body is not a robots file. */
export function parseRobots(
  body: string,
): { paths: string[]; disallowed: string[]; sitemaps: string[] } | null {
  if (looksHtml(body) || !/^\s*(user-agent|disallow|allow|sitemap)\s*:/im.test(body)) {
    return null;
  }
  const paths: string[] = [];
  const disallowed: string[] = [];
  const sitemaps: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const match = /^(allow|disallow|sitemap)\s*:\s*(\S+)/i.exec(line);
    if (!match) {
      continue;
    }
    const [, field, value] = match as unknown as [string, string, string];
    if (field.toLowerCase() === 'sitemap') {
      sitemaps.push(value);
      continue;
    }
    // Wildcard rules name a pattern, not a path: keep the literal prefix when it is a directory or file.
    const path = value.split(/[*$]/)[0]!;
    if (path.startsWith('/') && path !== '/') {
      paths.push(path);
      if (field.toLowerCase() === 'disallow') {
        disallowed.push(path);
      }
    }
  }
  return { paths, disallowed, sitemaps };
}

/** `<loc>` values of a sitemap or sitemap index. */
export function parseSitemap(xml: string): { locs: string[]; isIndex: boolean } {
  const { texts, root } = xmlElementTexts(xml, 'loc');
  return { locs: texts, isIndex: root === 'sitemapindex' };
}

function sameOrigin(value: string, start: URL): URL | null {
  try {
    const url = new URL(value, start);
    url.hash = '';
    return url.origin === start.origin ? url : null;
  } catch {
    return null;
  }
}

async function fetchSitemap(client: HttpClient, url: URL): Promise<string | null> {
  const response = await client.tryRequest(url, { ...fileProbeInit, maxBodyBytes: 2_000_000 });
  if (response?.status !== 200) {
    return null;
  }
  let bytes = Buffer.from(response.body, 'latin1');
  if (archiveKind(response.body) === 'gzip archive') {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: 10_000_000 });
    } catch {
      // Guard: a broken or oversized gzip sitemap names nothing; the scan goes on without it.
      return null;
    }
  }
  const body = bytes.toString('utf8');
  const xml =
    /xml/i.test(header(response, 'content-type') ?? '') || /^\s*<\?xml|<urlset|<sitemapindex/.test(body);
  return xml && !looksHtml(body) ? body : null;
}

export async function readSiteMaps(client: HttpClient, start: URL): Promise<SiteMaps> {
  const notes: string[] = [];
  const seeds = new Map<string, URL>();
  const disallowed: URL[] = [];
  const addSeed = (url: URL | null) => url && seeds.size < limits.seeds && seeds.set(url.href, url);
  const queue: URL[] = [new URL('/sitemap.xml', start)];
  const robots = await client.tryRequest(new URL('/robots.txt', start));
  const parsed = robots?.status === 200 ? parseRobots(robots.body) : null;
  if (parsed) {
    parsed.paths.forEach((path) => addSeed(sameOrigin(path, start)));
    parsed.disallowed.forEach((path) => disallowed.push(new URL(path, start)));
    parsed.sitemaps.forEach((s) => {
      const url = sameOrigin(s, start);
      if (url) {
        queue.unshift(url);
      }
    });
    notes.push(`robots.txt: ${parsed.paths.length} paths, ${parsed.sitemaps.length} sitemaps`);
  }
  const seen = new Set<string>();
  let urls = 0;
  while (queue.length > 0 && seen.size < limits.sitemaps && urls < limits.urls) {
    const url = queue.shift()!;
    if (seen.has(url.href)) {
      continue;
    }
    seen.add(url.href);
    const xml = await fetchSitemap(client, url);
    if (!xml) {
      continue;
    }
    const { locs, isIndex } = parseSitemap(xml);
    for (const loc of locs.slice(0, limits.urls - urls)) {
      urls += 1;
      const target = sameOrigin(loc, start);
      if (target && isIndex) {
        queue.push(target);
      } else {
        addSeed(target);
      }
    }
    notes.push(`${url.pathname}: ${locs.length} URLs`);
  }
  return { seeds: [...seeds.values()], disallowed, notes };
}
