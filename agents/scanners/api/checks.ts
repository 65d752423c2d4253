// The API checks, each over the operations read from the OpenAPI document. Only GET, HEAD, OPTIONS and
// TRACE are sent to real operations, plus malformed bodies that a parser must reject before any handler
// runs: the scanner never changes data on the target. A check judges an operation only once the target
// has proven it is there (proof.ts): a document can be stale, and a site can answer 404 or an app shell
// for every path.
import type { Finding } from '../../../shared/findings.ts';
import type { CorsResult } from '../core/cors.ts';
import { probeCors } from '../core/cors.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { findSqlError } from '../core/sql-errors.ts';
import { findStackTrace } from '../core/stack-trace.ts';
import type { Operation } from './openapi.ts';
import { endpointAnswers, isSuccessfulApiAnswer, provesOperation } from './proof.ts';
import { apiFinding } from './rules.ts';

const where = (op: Operation, suffix = '') => `${op.method} ${op.url.origin}${op.url.pathname}${suffix}`;

export async function authAndHeaderFindings(client: HttpClient, operations: Operation[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  let nosniffReported = false;
  for (const op of operations.filter((o) => o.method === 'GET')) {
    const response = await client.tryRequest(op.url);
    if (!endpointAnswers(response)) {
      continue;
    }
    const json = /json/i.test(header(response, 'content-type') ?? '');
    if (
      json &&
      !nosniffReported &&
      (header(response, 'x-content-type-options') ?? '').toLowerCase() !== 'nosniff'
    ) {
      nosniffReported = true;
      findings.push(
        apiFinding('api.header.nosniff-missing', {
          location: where(op),
          evidence: `HTTP ${response.status} application/json without X-Content-Type-Options: nosniff`,
        }),
      );
    }
    if (op.secured && (await provesOperation(client, op.url, response))) {
      findings.push(
        apiFinding('api.auth.missing', {
          location: where(op),
          evidence: `no credentials sent; HTTP ${response.status}, ${response.body.length} bytes: ${JSON.stringify(response.body.slice(0, 80))}`,
        }),
      );
      if (!/no-store|private/i.test(header(response, 'cache-control') ?? '')) {
        findings.push(
          apiFinding('api.header.cache-control-missing', {
            location: where(op),
            evidence: `Cache-Control: ${header(response, 'cache-control') ?? '(none)'}`,
          }),
        );
      }
    }
  }
  return findings;
}

async function malformed(client: HttpClient, op: Operation): Promise<HttpResponse[]> {
  const responses: HttpResponse[] = [];
  if (op.jsonBody) {
    const response = await client.tryRequest(op.url, {
      method: op.method,
      headers: { 'content-type': 'application/json' },
      body: '{"vigil":',
    });
    if (response) {
      responses.push(response);
    }
  }
  if (op.method === 'GET' && (op.pathParams.length > 0 || op.queryParams.length > 0)) {
    const url = new URL(op.url);
    op.queryParams.forEach((name) => url.searchParams.set(name, '%%{vigil}'));
    if (op.pathParams.length > 0) {
      url.pathname = url.pathname.replace(/[^/]+$/, '%25%25%7Bvigil%7D');
    }
    const response = await client.tryRequest(url);
    if (response) {
      responses.push(response);
    }
  }
  return responses;
}

export async function errorFindings(client: HttpClient, operations: Operation[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const op of operations) {
    for (const response of await malformed(client, op)) {
      const trace = findStackTrace(response.body);
      if (trace) {
        findings.push(
          apiFinding('api.error.verbose', {
            location: where(op),
            evidence: `HTTP ${response.status} on malformed input: ${trace}`,
          }),
        );
        break;
      }
    }
  }
  return findings;
}

export async function injectionFindings(client: HttpClient, operations: Operation[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const op of operations.filter((o) => o.method === 'GET')) {
    for (const name of op.queryParams.slice(0, 8)) {
      const url = new URL(op.url);
      url.searchParams.set(name, `1'"`);
      const plain = await client.tryRequest(withParam(op.url, name, '1'));
      const quoted = await client.tryRequest(url);
      const error = quoted ? findSqlError(quoted.body) : null;
      if (quoted && error && !(plain && findSqlError(plain.body))) {
        findings.push(
          apiFinding('api.sqli.error', {
            location: where(op, `?${name}=`),
            evidence: `${error.database} error after a quote in ${name}: "${error.match}" (HTTP ${quoted.status})`,
          }),
        );
      }
    }
  }
  return findings;
}

function withParam(url: URL, name: string, value: string): URL {
  const copy = new URL(url);
  copy.searchParams.set(name, value);
  return copy;
}

export async function methodFindings(
  client: HttpClient,
  operations: Operation[],
  base: URL,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const trace = await client.tryRequest(base, { method: 'TRACE', headers: { 'x-vigil-trace': 'probe' } });
  if (trace && trace.status === 200 && /TRACE \/|x-vigil-trace/i.test(trace.body)) {
    findings.push(
      apiFinding('api.method.trace', {
        location: `TRACE ${base.href}`,
        evidence: 'TRACE answered 200 and echoed the request',
      }),
    );
  }
  const byPath = new Map<string, Operation[]>();
  operations.forEach((op) => byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]));
  for (const [path, ops] of byPath) {
    // Only paths where no operation is secured: an endpoint that is public as a whole.
    if (ops.some((op) => op.secured)) {
      continue;
    }
    const options = await client.tryRequest(ops[0]!.url, { method: 'OPTIONS' });
    // A path the server does not serve (a stale document, a site without this API) allows nothing.
    const live =
      (options !== null && options.status >= 200 && options.status < 300) ||
      endpointAnswers(await client.tryRequest(ops[0]!.url));
    if (!live) {
      continue;
    }
    const allow = (
      options ? (header(options, 'allow') ?? header(options, 'access-control-allow-methods') ?? '') : ''
    ).toUpperCase();
    const unsafe = ['PUT', 'PATCH', 'DELETE'].filter(
      (method) => allow.split(/\s*,\s*/).includes(method) || ops.some((op) => op.method === method),
    );
    if (unsafe.length > 0) {
      const url = ops[0]!.url;
      findings.push(
        apiFinding('api.method.unsafe-unauthenticated', {
          location: `${url.origin}${url.pathname}`,
          evidence: `${path} has no security requirement; ${unsafe.join(', ')} ${allow ? `allowed (Allow: ${allow})` : 'declared'}`,
        }),
      );
    }
  }
  return findings;
}

const rateLimitHeaders = /^(ratelimit(-\w+)?|x-ratelimit-\w+|x-rate-limit-\w+|retry-after)$/i;

/**
 * Where to burst: a public GET without path parameters first, then the other GETs, then the base URL.
 * The first of them that answers as a working API operation is the one judged.
 */
export function rateLimitCandidates(gets: Operation[], base: URL): URL[] {
  const open = gets.filter((op) => !op.secured && op.pathParams.length === 0);
  return [...new Set([...open, ...gets].map((op) => op.url.href).concat(base.href))].map(
    (href) => new URL(href),
  );
}

export async function rateLimitFindings(
  client: HttpClient,
  candidates: URL[],
  burst = 30,
): Promise<Finding[]> {
  let url: URL | null = null;
  for (const candidate of candidates.slice(0, 4)) {
    if (await provesOperation(client, candidate, await client.tryRequest(candidate))) {
      url = candidate;
      break;
    }
  }
  // No working API operation answered: rate limiting of 404s or of an app shell is not the question.
  if (!url) {
    return [];
  }
  const probe = url;
  const responses = await Promise.all(Array.from({ length: burst }, () => client.tryRequest(probe)));
  const answered = responses.filter((r): r is HttpResponse => r !== null);
  const served = answered.filter(isSuccessfulApiAnswer);
  const limited = answered.some(
    (r) => r.status === 429 || Object.keys(r.headers).some((name) => rateLimitHeaders.test(name)),
  );
  // Failures in the burst (errors, 503s, dropped connections) may be a limit of another kind: not judged.
  if (served.length < burst / 2 || limited) {
    return [];
  }
  return [
    apiFinding('api.rate-limit.missing', {
      location: `GET ${url.origin}${url.pathname}`,
      evidence: `${served.length} of ${burst} requests in a burst answered successfully: no 429 and no RateLimit/Retry-After headers (statuses ${[...new Set(answered.map((r) => r.status))].join(', ')})`,
    }),
  ];
}

/** CORS of `url`, judged only where an API answers (a site's pages are the web scanner's). */
export async function apiCors(client: HttpClient, url: URL): Promise<CorsResult> {
  if (!endpointAnswers(await client.tryRequest(url))) {
    return { reflected: null, nullOrigin: null };
  }
  return probeCors(client, url);
}
