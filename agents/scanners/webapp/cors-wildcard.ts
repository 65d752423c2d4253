// `Access-Control-Allow-Origin: *` on API responses (JSON or XML): any web site a user visits can read
// what the API answers to requests without credentials, such as data that is meant for the intranet.
// Pages and static files with `*` are not APIs and are not reported.
import type { Finding } from '../../../shared/findings.ts';
import { corsProbeOrigin } from '../core/cors.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { webappFinding } from './rules.ts';

const isApiResponse = (r: HttpResponse) =>
  /^application\/([\w.+-]*\+)?(json|xml)\b|^text\/xml\b/i.test(header(r, 'content-type') ?? '');

/** API-looking URLs: JSON/XML answers the crawl saw, and paths under common API prefixes. */
export function apiCandidates(responses: { url: URL; response: HttpResponse | null }[], extra: URL[]): URL[] {
  const urls = [
    ...responses.filter(({ response }) => response && isApiResponse(response)).map(({ url }) => url),
    ...extra.filter((url) => /\/(api|v\d+|graphql|rest|json)(\/|$)|\.json$/i.test(url.pathname)),
  ];
  return [...new Map(urls.map((u) => [u.origin + u.pathname, u])).values()].slice(0, 10);
}

export async function corsWildcardFindings(
  client: HttpClient,
  candidates: URL[],
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  let done = 0;
  await forEachLimit(
    candidates,
    4,
    async (url) => {
      const response = await client.tryRequest(url, { headers: { origin: corsProbeOrigin } });
      tick(++done, candidates.length);
      if (
        response &&
        response.status < 400 &&
        isApiResponse(response) &&
        header(response, 'access-control-allow-origin')?.trim() === '*'
      ) {
        const where = new URL(url);
        where.search = '';
        findings.push(
          webappFinding('web.cors.wildcard', {
            location: where.href,
            evidence: `HTTP ${response.status} ${header(response, 'content-type')} with Access-Control-Allow-Origin: * (asked from ${corsProbeOrigin})`,
          }),
        );
      }
    },
    client.signal,
  );
  return findings;
}
