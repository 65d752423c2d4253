// Headers of the API a single-page app calls, which the HTML crawl never sees: nosniff on JSON answers,
// framework disclosure, and caching of what the login session returns. One finding per rule, at the
// first affected API URL in a stable order, with the count in the evidence.
import type { Finding } from '../../../../shared/findings.ts';
import { header } from '../../core/http-client.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import type { Page } from '../crawl.ts';
import { nosniff } from '../header-checks.ts';
import { webappFinding } from '../rules.ts';
import type { WebappRuleId } from '../rules.ts';

const isJson = (call: ApiCall) => /json/i.test(header(call.response, 'content-type') ?? '');
/** Stable order: what an unauthenticated visitor sees first (so the location does not depend on a login). */
const byUrl = (a: ApiCall, b: ApiCall) =>
  Number(a.phase === 'session') - Number(b.phase === 'session') || a.url.href.localeCompare(b.url.href);
const label = (call: ApiCall) => `${call.method} ${call.url.pathname}`;

/** Calls the app makes only in the login session (not before logging in): the user's own data. */
export function sessionOnly(calls: ApiCall[]): ApiCall[] {
  const anonymous = new Set(
    calls.filter((c) => c.phase === 'anonymous').map((c) => `${c.method} ${c.url.pathname}${c.url.search}`),
  );
  return calls.filter(
    (c) =>
      c.phase === 'session' &&
      !anonymous.has(`${c.method} ${c.url.pathname}${c.url.search}`) &&
      Boolean(c.headers.authorization ?? c.headers.cookie),
  );
}

function report(rule: WebappRuleId, hits: ApiCall[], what: (call: ApiCall) => string): Finding[] {
  const sorted = [...new Map([...hits].reverse().map((h) => [h.url.href, h])).values()].sort(byUrl);
  const first = sorted[0];
  if (!first) {
    return [];
  }
  const more =
    sorted.length > 1 ? ` (and ${sorted.length - 1} more: ${sorted.slice(1, 4).map(label).join(', ')})` : '';
  return [
    webappFinding(rule, { location: first.url.href, evidence: `${label(first)}: ${what(first)}${more}` }),
  ];
}

export function apiHeaderFindings(calls: ApiCall[], pages: Page[]): Finding[] {
  const answered = calls.filter((c) => c.response.status >= 200 && c.response.status < 400 && isJson(c));
  const findings: Finding[] = [];
  findings.push(
    ...report(
      'web.api.nosniff-missing',
      answered.filter((c) => !nosniff(header(c.response, 'x-content-type-options'))),
      (c) => `${header(c.response, 'content-type')} without X-Content-Type-Options: nosniff`,
    ),
  );
  // Guard: when the HTML pages already disclose the framework, the API answers add nothing new.
  const htmlDiscloses = pages.some(
    (p) => p.facts && p.response.status < 400 && header(p.response, 'x-powered-by'),
  );
  if (!htmlDiscloses) {
    findings.push(
      ...report(
        'web.disclosure.powered-by',
        answered.filter((c) => header(c.response, 'x-powered-by')),
        (c) => `X-Powered-By: ${header(c.response, 'x-powered-by')}`,
      ),
    );
  }
  findings.push(
    ...report(
      'web.api.cache-control-missing',
      sessionOnly(answered).filter(
        (c) => c.method === 'GET' && !/no-store|private/i.test(header(c.response, 'cache-control') ?? ''),
      ),
      (c) =>
        `answered in the login session with Cache-Control: ${header(c.response, 'cache-control') ?? '(none)'}`,
    ),
  );
  return findings;
}
