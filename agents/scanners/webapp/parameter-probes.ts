// Harmless active probes on the parameters the crawl found: reflected XSS (a unique marker tag comes
// back unencoded in HTML), SQL error disclosure (a quote makes the database complain), and open
// redirects (a redirect parameter sends the browser to our marker host; only the Location header is
// read, the redirect is never followed off the target).
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse, RequestInit } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { findSqlError } from '../core/sql-errors.ts';
import type { Endpoint } from './crawl.ts';
import { webappFinding } from './rules.ts';
import { carries, urlParamsFirst } from './url-params.ts';

/** A host under the reserved .invalid TLD: it can never resolve, so a followed redirect goes nowhere. */
export const redirectMarkerHost = 'vigil-redirect-check.invalid';
const isMarkerHost = (hostname: string) =>
  hostname === redirectMarkerHost || hostname.endsWith(`.${redirectMarkerHost}`);

/**
 * Our host, then, when the page's own value is an absolute URL (an allow-listed partner), the ways allow-lists
 * that test the text instead of the parsed host are passed: the allowed URL in our query, as the user
 * name before our host, and as a label in front of our domain.
 */
function redirectValues(original: string): string[] {
  // `/\host/`: browsers read a backslash as a slash, so a check that the value starts with one slash passes.
  const values = [`https://${redirectMarkerHost}/`, `//${redirectMarkerHost}/`, `/\\${redirectMarkerHost}/`];
  const allowed = /^https?:\/\//.test(original) ? URL.parse(original) : null;
  if (allowed) {
    values.push(
      `https://${redirectMarkerHost}/?${original}`,
      `https://${allowed.host}@${redirectMarkerHost}/`,
      `https://${allowed.hostname}.${redirectMarkerHost}/`,
    );
  }
  return values;
}

/** A field that carries a password or another secret. */
export const passwordField = /pass(?:word|wd|phrase)?$|^pwd?$|secret/i;
/** A field of a form that changes a password, which only works logged in. */
const passwordChange = /new|old|current|change/i;

/**
 * A login (or a sign-up): a password field and no field of a password change. It is probed logged out,
 * where its bypass matters: a payload that logs in must not swap the scan's session for another account's
 * (its Set-Cookie would land in the scan's jar), and a refused login is an answer, not a lost session.
 */
export const probedLoggedOut = (endpoint: Endpoint): boolean =>
  endpoint.params.some((param) => passwordField.test(param)) &&
  !endpoint.params.some((param) => passwordChange.test(param));

/**
 * Sends `value` in `param` of the endpoint, the other parameters at their crawled values (or "test"); a
 * JSON endpoint gets the app's own body with that one field replaced. A login goes without the scan's
 * session (probedLoggedOut).
 */
export function send(
  client: HttpClient,
  endpoint: Endpoint,
  param: string,
  value: string,
  options: RequestInit = {},
): Promise<HttpResponse | null> {
  const init: RequestInit = probedLoggedOut(endpoint) ? { ...options, anonymous: true } : options;
  if (endpoint.json) {
    return client.tryRequest(endpoint.url, {
      ...init,
      method: 'POST',
      // Accepting JSON as the app's own request did: frameworks answer errors in the format asked for.
      headers: { 'content-type': 'application/json', accept: 'application/json, text/plain, */*' },
      body: JSON.stringify({ ...endpoint.json, [param]: value }),
    });
  }
  const values = new URLSearchParams();
  for (const name of endpoint.params) {
    values.set(name, name === param ? value : (endpoint.url.searchParams.get(name) ?? 'test'));
  }
  if (endpoint.method === 'POST') {
    return client.tryRequest(endpoint.url, {
      ...init,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: values.toString(),
    });
  }
  const url = new URL(endpoint.url);
  url.search = values.toString();
  return client.tryRequest(url, init);
}

/** The value the crawl saw in `param` (the query string, or the app's JSON body), if any. */
export function crawledValue(endpoint: Endpoint, param: string): string | null {
  const value = endpoint.json ? endpoint.json[param] : endpoint.url.searchParams.get(param);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : null;
}

/** A finding's location for one parameter of an endpoint: stable between scans (no values in it). */
export function where(endpoint: Endpoint, param: string): string {
  const url = new URL(endpoint.url);
  url.search = '';
  return `${endpoint.method === 'POST' ? 'POST ' : ''}${url.href}?${param}=`;
}

export async function probeFindings(
  client: HttpClient,
  endpoints: Endpoint[],
  onProgress: (done: number, total: number) => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const targets = endpoints.slice(0, 40).flatMap((endpoint) =>
    // Parameters that carry a URL or a path first, so that the cap never leaves them out.
    urlParamsFirst(endpoint.params, (param) => carries(param, crawledValue(endpoint, param)))
      .slice(0, 8)
      .map((param) => ({ endpoint, param })),
  );
  let done = 0;
  await forEachLimit(
    targets,
    4,
    async ({ endpoint, param }) => {
      const location = where(endpoint, param);
      const token = randomBytes(5).toString('hex');
      const marker = `<vigil${token}>`;
      const xss = await send(client, endpoint, param, `v"'${marker}`);
      if (xss && /html/i.test(header(xss, 'content-type') ?? '') && xss.body.includes(marker)) {
        findings.push(
          webappFinding('web.xss.reflected', {
            location,
            evidence: `the marker ${marker} came back unencoded in an HTML response (HTTP ${xss.status})`,
          }),
        );
      }
      const plain = await send(client, endpoint, param, '1');
      const quoted = await send(client, endpoint, param, `1'"`);
      const error = quoted ? findSqlError(quoted.body) : null;
      // Guard: an error that the page shows anyway is not caused by our quote.
      if (quoted && error && !(plain && findSqlError(plain.body))) {
        findings.push(
          webappFinding('web.sqli.error', {
            location,
            evidence: `${error.database} error after a quote in ${param}: "${error.match}" (HTTP ${quoted.status})`,
          }),
        );
      }
      const originalValue = crawledValue(endpoint, param) ?? '';
      // Every parameter that carries a URL or a path, by its name or its value, may be a redirect's target.
      if (carries(param, originalValue) !== null) {
        for (const value of redirectValues(originalValue)) {
          const response = await send(client, endpoint, param, value);
          const target = response ? header(response, 'location') : undefined;
          if (
            response &&
            response.status >= 300 &&
            response.status < 400 &&
            target &&
            isMarkerHost(new URL(target, endpoint.url).hostname)
          ) {
            findings.push(
              webappFinding('web.open-redirect', {
                location,
                evidence: `${param}=${value} answered ${response.status} Location: ${target}${
                  value.includes(originalValue) && originalValue
                    ? ` (an allow-list that looks for ${originalValue} in the value was passed)`
                    : ''
                }`,
              }),
            );
            break;
          }
        }
      }
      onProgress(++done, targets.length);
    },
    client.signal,
  );
  return findings;
}
