// Endpoint discovery beyond links, fed by whichever crawl ran (HTML or browser: the same Page objects):
// paths named in the site's JavaScript, the operations of an OpenAPI document at its usual paths, JSON
// indexes at common API prefixes, and GraphQL at its usual paths. Every resource found is fetched once
// without credentials, even when the scan is logged in (its JSON is checked for personal data and read for
// more paths); those with query parameters join the crawl's endpoints, so that every active probe runs on
// them too.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { loadOperations } from '../../api/openapi.ts';
import type { HttpClient, HttpResponse } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';
import { endpointKey } from '../crawl.ts';
import type { Endpoint, Page } from '../crawl.ts';
import { isHtml, parseHtml } from '../html.ts';
import { webappFinding } from '../rules.ts';
import { graphqlFindings } from './graphql.ts';
import { pathsInScript, unsafePath } from './js-paths.ts';
import { personalData } from './personal-data.ts';
import { jsonBody } from '../write/marker.ts';

export const apiPrefixes = [
  '/api/',
  '/api/v1/',
  '/api/v2/',
  '/api/v3/',
  '/v1/',
  '/v2/',
  '/rest/',
  '/rest/v1/',
];

export interface DiscoveryInput {
  pages: Page[];
  /** Bodies of the same-origin scripts the pages load. */
  scripts: { url: URL; body: string }[];
  /** Endpoints the crawl already has. */
  known: Endpoint[];
}

export interface Discovery {
  /** New parameterised endpoints for the active probes. */
  endpoints: Endpoint[];
  /** Resources found beyond the crawl that answered (for the CORS probe and other per-URL checks). */
  resources: URL[];
  findings: Finding[];
}

/** `web.api.personal-data` when `response` (a 2xx JSON answer to `url`) gives personal data. */
export function personalDataFinding(url: URL, response: HttpResponse): Finding | null {
  const body = response.status >= 200 && response.status < 300 ? jsonBody(response) : undefined;
  const exposed = body === undefined ? null : personalData(body);
  return exposed
    ? webappFinding('web.api.personal-data', {
        location: url.href,
        evidence: `GET ${url.pathname}${url.search}: ${exposed.evidence}`,
        ...(exposed.credentials ? { cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N' } : {}),
      })
    : null;
}

/** Without the login of an authenticated scan: what is open to anyone is the question. */
const anonymously = (client: HttpClient, url: URL) => client.tryRequest(url, { anonymous: true });

/** JSON indexes at the common API prefixes (a catch-all that answers any path alike is not one). */
async function apiIndexes(client: HttpClient, start: URL): Promise<Map<string, HttpResponse>> {
  const found = new Map<string, HttpResponse>();
  for (const prefix of apiPrefixes) {
    const url = new URL(prefix, start);
    const response = await anonymously(client, url);
    if (response?.status !== 200 || jsonBody(response) === undefined) {
      continue;
    }
    const other = await anonymously(
      client,
      new URL(`${prefix}vigil-${randomBytes(4).toString('hex')}`, start),
    );
    if (!(other?.status === 200 && other.body === response.body)) {
      found.set(url.href, response);
    }
  }
  return found;
}

export async function discoverEndpoints(
  client: HttpClient,
  start: URL,
  input: DiscoveryInput,
  limits: { maxResources: number },
  tick: (done: number, total: number) => void,
): Promise<Discovery> {
  const findings: Finding[] = [];
  const crawled = new Set(input.pages.map((p) => p.url.href));
  const known = new Set(input.known.map(endpointKey));
  const endpoints = new Map<string, Endpoint>();
  const addEndpoint = (endpoint: Endpoint) => {
    const k = endpointKey(endpoint);
    if (endpoint.params.length > 0 && endpoint.url.origin === start.origin && !known.has(k)) {
      endpoints.set(k, endpoint);
    }
  };
  const queue = new Map<string, URL>();
  const enqueue = (urls: URL[]) =>
    urls
      .filter((u) => u.origin === start.origin && !crawled.has(u.href) && !unsafePath.test(u.pathname))
      .forEach((u) => queue.size < limits.maxResources && queue.set(u.href, u));

  // Pages the crawl fetched already: JSON that gives personal data is fetched once more without any
  // credential, and what that gives anyone decides. Logged in, the account's own profile is no finding;
  // logged out, the browser may still hold a session of its own (a sign-up form it sent logs it in).
  for (const page of input.pages) {
    let finding = personalDataFinding(page.url, page.response);
    if (finding) {
      const open = await anonymously(client, page.url);
      finding = open ? personalDataFinding(page.url, open) : null;
    }
    if (finding) {
      findings.push(finding);
    }
  }
  for (const body of [
    ...input.scripts.map((script) => script.body),
    ...input.pages.flatMap((page) => (page.facts?.scripts ?? []).map((script) => script.inline)),
  ]) {
    enqueue(pathsInScript(body, start));
  }
  tick(1, 4);
  // An OpenAPI operation names its optional query parameters too; those not in the URL are sent as "test".
  const gets = (await loadOperations(client, start)).operations.filter((op) => op.method === 'GET');
  gets.forEach((op) => addEndpoint({ url: op.url, method: 'GET', params: op.queryParams }));
  enqueue(gets.map((op) => op.url));
  tick(2, 4);
  const fetched = await apiIndexes(client, start);
  enqueue([...fetched.values()].map((response) => new URL(response.url)));
  const graphql = await graphqlFindings(client, start);
  findings.push(...graphql.findings);
  tick(3, 4);

  const resources: URL[] = [...graphql.endpoints];
  // The queue grows while it is read: JSON answers name more resources, as long as the limit allows.
  for (const url of queue.values()) {
    const response = fetched.get(url.href) ?? (await anonymously(client, url));
    // Guard: a path that does not exist is dropped; one that refuses the values it got (400, 422…) is kept.
    if (!response || [404, 405, 410].includes(response.status)) {
      continue;
    }
    addEndpoint({ url, method: 'GET', params: [...new Set(url.searchParams.keys())] });
    if (response.status >= 400) {
      continue;
    }
    resources.push(url);
    const finding = personalDataFinding(url, response);
    if (finding) {
      findings.push(finding);
    }
    if (jsonBody(response) !== undefined) {
      enqueue(pathsInScript(response.body, start));
    }
    if (isHtml(header(response, 'content-type'), response.body)) {
      for (const form of parseHtml(response.body, url).forms) {
        addEndpoint({ url: form.action, method: form.method, params: form.fields });
      }
    }
  }
  tick(4, 4);
  return {
    endpoints: [...endpoints.values()],
    resources: [...new Set(resources.map((u) => u.href))].map((h) => new URL(h)),
    findings,
  };
}
