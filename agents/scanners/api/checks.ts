// The API checks, each over the operations read from the OpenAPI document. Only GET, HEAD, OPTIONS and
// TRACE are sent to real operations, plus malformed bodies that a parser must reject before any handler
// runs: the scanner never changes data on the target.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { findSqlError } from '../core/sql-errors.ts';
import { findStackTrace } from '../core/stack-trace.ts';
import type { Operation } from './openapi.ts';
import { apiFinding } from './rules.ts';

const where = (op: Operation, suffix = '') => `${op.method} ${op.url.origin}${op.url.pathname}${suffix}`;

export async function authAndHeaderFindings(client: HttpClient, operations: Operation[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  let nosniffReported = false;
  for (const op of operations.filter((o) => o.method === 'GET')) {
    const response = await client.tryRequest(op.url);
    if (!response) {
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
    if (op.secured && response.status >= 200 && response.status < 300) {
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

export async function rateLimitFindings(client: HttpClient, url: URL, burst = 30): Promise<Finding[]> {
  const responses = await Promise.all(Array.from({ length: burst }, () => client.tryRequest(url)));
  const answered = responses.filter((r): r is HttpResponse => r !== null);
  const limited = answered.some(
    (r) => r.status === 429 || Object.keys(r.headers).some((name) => rateLimitHeaders.test(name)),
  );
  if (answered.length < burst / 2 || limited) {
    return [];
  }
  return [
    apiFinding('api.rate-limit.missing', {
      location: `GET ${url.origin}${url.pathname}`,
      evidence: `${answered.length} requests in a burst: no 429 and no RateLimit/Retry-After headers (statuses ${[...new Set(answered.map((r) => r.status))].join(', ')})`,
    }),
  ];
}
