// The places of a site that get the per-place checks (write methods, CORS with and without credentials,
// listings, errors): every directory the scan knows of, whatever found it (pages, links, sitemaps,
// robots.txt, the paths in scripts and API documents, the listings), and the common directories and API
// roots of a short wordlist that the site really has, each judged against what the site answers for a
// missing directory (soft404.ts), as the exposed-files check judges files.
import type { PlacesReport } from '../core/context.ts';
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { directoriesOf } from './directories.ts';
import { personalDataFinding } from './discovery/index.ts';
import { fileProbeInit, NotFoundOracle } from './soft404.ts';

/**
 * Directories and API roots administrators' guides and frameworks name most, asked once each: WebDAV
 * shares, uploads, admin and API prefixes. Bounded: each costs one request, and their parents' missing
 * answers one more each.
 */
export const PLACE_WORDLIST = [
  'api/',
  'api/v1/',
  'api/v2/',
  'v1/',
  'v2/',
  'rest/',
  'rest/api/',
  'json/',
  'admin/',
  'administrator/',
  'manage/',
  'internal/',
  'private/',
  'upload/',
  'uploads/',
  'files/',
  'file/',
  'data/',
  'dav/',
  'webdav/',
  'share/',
  'shared/',
  'public/',
  'storage/',
  'media/',
  'docs/',
  'download/',
  'downloads/',
  'export/',
  'backup/',
  'tmp/',
  'logs/',
  'test/',
  'dev/',
] as const;

/** At most this many places get the per-place checks (each costs a few requests per check). */
export const MAX_PLACES = 32;

export interface PlaceSources {
  /** Pages, crawl endpoints, sitemap entries and robots.txt paths. */
  linked: URL[];
  /** Paths found in scripts and API documents, and the resources discovery reached. */
  discovered: URL[];
}

/** What the scan knows of its places, added to as checks find more (listings name subdirectories). */
export class Places {
  private readonly byHref = new Map<
    string,
    { url: URL; source: keyof Omit<PlacesReport, 'checked' | 'wordlist_requests'> }
  >();
  wordlistRequests = 0;
  /** What the wordlist's places gave anyone: personal data in their answers, fetched without the session. */
  readonly findings: Finding[] = [];

  constructor(private readonly origin: URL) {}

  /** Adds the directories of `urls` (and their parents) found by `source`; the first finder is kept. */
  add(urls: URL[], source: 'linked' | 'discovered' | 'listed' | 'wordlist'): void {
    for (const dir of directoriesOf(urls, this.origin, Number.POSITIVE_INFINITY)) {
      if (!this.byHref.has(dir.href)) {
        this.byHref.set(dir.href, { url: dir, source });
      }
    }
  }

  has(url: URL): boolean {
    return this.byHref.has(url.href);
  }

  /** The places to check, root first, in order of discovery, at most MAX_PLACES. */
  list(): URL[] {
    return [...this.byHref.values()].slice(0, MAX_PLACES).map((p) => p.url);
  }

  report(): PlacesReport {
    const kept = [...this.byHref.values()].slice(0, MAX_PLACES);
    const count = (source: string) => kept.filter((p) => p.source === source).length;
    return {
      checked: kept.length,
      linked: count('linked'),
      discovered: count('discovered'),
      listed: count('listed'),
      wordlist: count('wordlist'),
      wordlist_requests: this.wordlistRequests,
    };
  }
}

/**
 * The places the scan knows of, then the wordlist's entries the site has: an entry counts when its answer
 * differs from what its parent answers for a random directory name (a 403 for a directory without an index
 * where missing ones are 404, a page, a listing, a redirect elsewhere). Asked at most `maxRequests` times.
 */
export async function findPlaces(
  client: HttpClient,
  origin: URL,
  sources: PlaceSources,
  { maxRequests, tick }: { maxRequests: number; tick: (done: number, total: number) => void },
): Promise<Places> {
  const places = new Places(origin);
  places.add(sources.linked, 'linked');
  places.add(sources.discovered, 'discovered');
  // Without the session: a place is what anyone reaches, and what it gives anyone is judged as such.
  const init = { ...fileProbeInit, anonymous: true };
  const oracle = new NotFoundOracle(client, init);
  const candidates = PLACE_WORDLIST.map((path) => new URL(path, origin)).filter((url) => !places.has(url));
  const before = client.requests;
  let done = 0;
  // Kept in the wordlist's order, whatever order the answers come in, so a scan's places read the same.
  const hits: (Finding | true | undefined)[] = [];
  // One entry at a time per lane: a parent's missing answer is fetched once and shared (NotFoundOracle).
  await forEachLimit(
    candidates,
    4,
    async (url, index) => {
      tick(++done, candidates.length);
      if (client.requests - before >= maxRequests) {
        return;
      }
      const response = await client.tryRequest(url, init);
      if (response && response.status !== 404 && (await oracle.judge(url, response)) !== null) {
        hits[index] = personalDataFinding(url, response) ?? true;
      }
    },
    client.signal,
  );
  candidates.forEach((url, index) => {
    const hit = hits[index];
    if (hit) {
      places.add([new URL('x', url)], 'wordlist');
      if (hit !== true) {
        places.findings.push(hit);
      }
    }
  });
  places.wordlistRequests = client.requests - before;
  return places;
}
