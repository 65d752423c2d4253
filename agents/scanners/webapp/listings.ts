// Directory listings (Apache/nginx/lighttpd autoindex, Python's http.server, IIS, Tomcat, Express's
// serve-index), and what they show: the files and subdirectories they name are probed in turn, so a
// listing reached only through robots.txt still leads to the dump lying in it.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { parseHtml } from './html.ts';
import { webappFinding } from './rules.ts';
import { fileProbeInit } from './soft404.ts';
import type { NotFoundOracle } from './soft404.ts';

const listingSignature =
  /<title>\s*Index of \/|<h1>\s*Index of \/|Directory listing for \/|\[To Parent Directory\]|<title>Directory Listing For \/|<title>listing directory \//i;

/**
 * Subdirectories that a listing links without a trailing slash: serve-index marks them with an icon class,
 * or, without icons, leaves their size empty.
 */
const directoryMarks = [
  /<a\s[^>]*href="([^"]+)"[^>]*class="[^"]*\bicon-directory\b/gi,
  /<a\s[^>]*href="([^"]+)"[^>]*>\s*<span class="name">[^<]*<\/span>\s*<span class="size"><\/span>/gi,
];

function directoryLinks(body: string, dir: URL): Set<string> {
  return new Set(
    directoryMarks.flatMap((mark) =>
      [...body.matchAll(mark)].map((match) => new URL(match[1]!, dir).pathname),
    ),
  );
}

/**
 * Directories a scan fetches to look for listings, candidates and the subdirectories listings name: a
 * listing is followed four levels down (Debian's /javascript/ alias nests its libraries' folders three deep),
 * ten subdirectories a listing.
 */
export const listingLimits = { rounds: 4, perListing: 10, directories: 60 };

export interface ListingResult {
  findings: Finding[];
  /** Files and subdirectories the listings name (same origin, below the listed directory). */
  files: URL[];
  subdirectories: URL[];
}

export async function listingFindings(
  client: HttpClient,
  oracle: NotFoundOracle,
  candidates: URL[],
  tick: () => void,
): Promise<ListingResult> {
  const result: ListingResult = { findings: [], files: [], subdirectories: [] };
  const seen = new Set<string>();
  let queue = candidates;
  for (let round = 0; round < listingLimits.rounds && queue.length > 0; round += 1) {
    const next: URL[] = [];
    const fresh = [...new Map(queue.map((u) => [u.href, u])).values()]
      .filter((u) => !seen.has(u.href))
      // The candidates themselves are always fetched; what listings add, within the scan's bound.
      .slice(0, round === 0 ? undefined : Math.max(0, listingLimits.directories - seen.size));
    fresh.forEach((u) => seen.add(u.href));
    await forEachLimit(
      fresh,
      6,
      async (dir) => {
        const response = await client.tryRequest(dir, fileProbeInit);
        tick();
        if (response?.status !== 200 || !listingSignature.test(response.body)) {
          return;
        }
        if ((await oracle.judge(dir, response)) === null) {
          return;
        }
        const links = parseHtml(Buffer.from(response.body, 'latin1').toString('utf8'), dir).links.filter(
          (link) =>
            link.origin === dir.origin &&
            link.pathname.startsWith(dir.pathname) &&
            link.pathname !== dir.pathname,
        );
        const marked = directoryLinks(response.body, dir);
        const asDirectory = (link: URL) =>
          marked.has(link.pathname) ? new URL(`${link.pathname}/`, link.origin) : link;
        const entries = links.map(asDirectory);
        const files = entries.filter((link) => !link.pathname.endsWith('/'));
        const dirs = entries.filter((link) => link.pathname.endsWith('/'));
        result.files.push(...files.map((link) => new URL(link.pathname, link.origin)));
        result.subdirectories.push(...dirs);
        next.push(...dirs.slice(0, listingLimits.perListing));
        result.findings.push(
          webappFinding('web.directory-listing', {
            location: response.url,
            evidence: `directory index page served, naming ${files.length} files and ${dirs.length} directories${
              files.length
                ? ` (${files
                    .slice(0, 4)
                    .map((f) => decodeURIComponent(f.pathname.split('/').pop()!))
                    .join(', ')})`
                : ''
            }`,
          }),
        );
      },
      client.signal,
    );
    queue = next;
  }
  return result;
}
