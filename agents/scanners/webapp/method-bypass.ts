// Access rules written for some methods only (Apache's `<Limit GET POST>`, a proxy that checks GET and
// POST) let any other method through. For each page that refused us with 401 or 403, one request with a
// made-up method: reported when it answers 200 with content that is not the refusal page.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import type { Page } from './crawl.ts';
import { webappFinding } from './rules.ts';
import { similarity } from './soft404.ts';

/** Like wapiti's htaccess module's "ABC": a method no server implements on purpose. */
const madeUpMethod = 'VIGIL';

export async function methodBypassFindings(
  client: HttpClient,
  pages: Page[],
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const refused = [
    ...new Map(
      pages
        .filter((p) => p.response.status === 401 || p.response.status === 403)
        .map((p) => [p.url.origin + p.url.pathname, p]),
    ).values(),
  ].slice(0, 10);
  let done = 0;
  await forEachLimit(
    refused,
    4,
    async (page) => {
      // Without the login of an authenticated scan: logged in, the page may rightly answer 200.
      const response = await client.tryRequest(page.url, { method: madeUpMethod, anonymous: true });
      tick(++done, refused.length);
      if (
        response?.status === 200 &&
        response.body.trim().length > 0 &&
        similarity(response.body, page.response.body) < 0.5 &&
        !/method not allowed|not implemented|unsupported method|invalid method/i.test(
          response.body.slice(0, 2000),
        )
      ) {
        const title = /<title>([^<]{1,60})/i.exec(response.body)?.[1]?.trim();
        findings.push(
          webappFinding('web.auth.method-bypass', {
            location: page.url.href,
            evidence: `GET answered ${page.response.status}; ${madeUpMethod} answered 200 with ${response.body.length} bytes${title ? ` ("${title}")` : ''}`,
          }),
        );
      }
    },
    client.signal,
  );
  return findings;
}
