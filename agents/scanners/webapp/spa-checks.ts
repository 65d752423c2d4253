// The checks only a rendering, logging-in crawl makes possible: the app's API answers (headers, caching),
// what the login session protects, tokens left in web storage, and source maps beside the scripts.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import type { CrawlOutcome } from './run-crawl.ts';
import { apiHeaderFindings } from './spa/api-headers.ts';
import { sessionFindings } from './spa/session-checks.ts';
import { sourceMapFindings } from './spa/source-maps.ts';
import { storageFindings } from './spa/storage.ts';

export async function spaFindings(
  client: HttpClient,
  crawled: CrawlOutcome,
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const origin = crawled.pages[0]?.url.origin;
  if (!origin) {
    return [];
  }
  const login = crawled.session?.login;
  const findings = [
    ...crawled.domXss,
    ...apiHeaderFindings(crawled.apiCalls, crawled.pages),
    ...storageFindings(origin, crawled.storage, crawled.apiCalls),
  ];
  let done = 0;
  if (crawled.session) {
    findings.push(
      ...(await sessionFindings(
        client,
        crawled.session,
        crawled.apiCalls,
        login?.kind === 'form' ? login.username : null,
        () => tick(++done, done + 1),
      )),
    );
  }
  findings.push(...(await sourceMapFindings(client, origin, crawled.pages)));
  return findings;
}
