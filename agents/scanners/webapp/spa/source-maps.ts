// Source maps next to the site's own scripts: the script's sourceMappingURL comment (or SourceMap header)
// is followed, and a map counts as exposed only when it is one (version 3 with its sources listed), so a
// catch-all page answering 200 for every path is never taken for a map. One finding for the site, at the
// first map in a stable order: deploying maps is one decision, fixed in one place.
import type { Finding } from '../../../../shared/findings.ts';
import type { HttpClient } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';
import { forEachLimit } from '../../core/pool.ts';
import type { Page } from '../crawl.ts';
import { webappFinding } from '../rules.ts';
import { parseJson } from './personal-data.ts';

const maxScripts = 12;

export async function sourceMapFindings(
  client: HttpClient,
  origin: string,
  pages: Page[],
): Promise<Finding[]> {
  const scripts = [
    ...new Set(
      pages
        .flatMap((p) => p.facts?.scripts ?? [])
        .flatMap((s) => (s.src && s.src.origin === origin ? [s.src.href] : [])),
    ),
  ]
    .sort()
    .slice(0, maxScripts);
  const maps = new Map<string, number>();
  await forEachLimit(
    scripts,
    4,
    async (src) => {
      const script = await client.tryRequest(src, { maxBodyBytes: 8_000_000 });
      if (!script || script.status !== 200) {
        return;
      }
      const named =
        header(script, 'sourcemap') ??
        header(script, 'x-sourcemap') ??
        /\/[/*][#@]\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/.exec(script.body.slice(-2000))?.[1];
      if (!named || named.startsWith('data:')) {
        return;
      }
      const url = new URL(named, src);
      if (url.origin !== origin) {
        return;
      }
      const map = await client.tryRequest(url, { maxBodyBytes: 8_000_000 });
      const parsed =
        map?.status === 200
          ? (parseJson(map.body) as { version?: unknown; sources?: unknown } | undefined)
          : undefined;
      if (parsed?.version === 3 && Array.isArray(parsed.sources) && parsed.sources.length > 0) {
        maps.set(url.href, parsed.sources.length);
      }
    },
    client.signal,
  );
  const sorted = [...maps.keys()].sort();
  if (sorted.length === 0) {
    return [];
  }
  const first = sorted[0]!;
  return [
    webappFinding('web.exposed.source-map', {
      location: first,
      evidence: `HTTP 200, a version 3 source map listing ${maps.get(first)} original source files${sorted.length > 1 ? ` (and ${sorted.length - 1} more maps)` : ''}`,
    }),
  ];
}
