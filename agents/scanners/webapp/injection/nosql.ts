// NoSQL operator injection (MongoDB-style query operators): an app that hands a parsed request to its
// database as a filter (`find({ category: req.query.category })`) takes `category[$ne]=x` (qs, Express's
// default query parser) or `{"category": {"$ne": "x"}}` (JSON) as an operator instead of a value. The
// probes are read-only comparisons (`$ne`, `$gt`, `$in`), never `$where` or other server-side JavaScript.
//
// Boolean: `$ne: R` (true for every record) must answer unlike the literal `R` (true for none, asked three
// times to learn the page's own variation), the same again in three rounds of repeats with fresh values,
// in which a second, operator-against-operator pair must agree too: `$gt: ""` like `$ne`, and
// `$in: [R']` (nothing) like the literal. An app that merely answers the bracketed name or an object
// differently (a validation error, a missing field) answers both operators alike and fails that pair.
// A parameter alone may be too little (a login matches the user AND the password): when no parameter of
// an endpoint answers alone, all of them are tried together and each is reported that the true answer
// needs (with it back at its literal, the answer is the literal's). Error: a MongoDB-style error
// (unknown operator, a cast error naming the operator, BSON) in the answer to two operators and not to
// the literal.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { header } from '../../core/http-client.ts';
import type { HttpClient, HttpResponse } from '../../core/http-client.ts';
import { forEachLimit } from '../../core/pool.ts';
import type { Endpoint } from '../crawl.ts';
import { probedLoggedOut, where } from '../parameter-probes.ts';
import { webappFinding } from '../rules.ts';
import { Baseline, observe } from './compare.ts';
import { injectionTargets } from './index.ts';
import { TimingLane } from './lane.ts';
import { shuffle } from './param-probe.ts';
import { antiForgeryField } from '../csrf.ts';

/** What one parameter carries in a probe: a plain value, or one operator with its operand. */
export type Carried = { literal: string } | { operator: '$ne' | '$gt' | '$in'; operand: string | string[] };

/** Parameters tried together at most (the rest keep their crawled values). */
const maxTogether = 6;
/** Requests a parameter takes when nothing is found: three literals and one operator (the same together). */
export const nosqlRequestsPerParam = 4;
/** Rounds of repeats and operator pairs before a difference is reported. */
const rounds = 3;

const random = () => `v${randomBytes(5).toString('hex')}`;

/**
 * The request that sends `carried` in the endpoint's parameters, the others at their crawled values (or
 * "test"): a JSON body with the field replaced (an object for an operator), or a query string / form body
 * in the bracket notation qs, PHP and Rack parse into objects (`name[$ne]=R`, `name[$in][]=R`).
 */
export function nosqlRequest(
  endpoint: Endpoint,
  carried: Record<string, Carried>,
): { url: URL; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string } {
  if (endpoint.json) {
    const body: Record<string, unknown> = { ...endpoint.json };
    for (const [name, value] of Object.entries(carried)) {
      body[name] = 'literal' in value ? value.literal : { [value.operator]: value.operand };
    }
    return {
      url: endpoint.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/plain, */*' },
      body: JSON.stringify(body),
    };
  }
  const values = new URLSearchParams();
  for (const name of endpoint.params) {
    const value = carried[name];
    if (!value) {
      values.append(name, endpoint.url.searchParams.get(name) ?? 'test');
    } else if ('literal' in value) {
      values.append(name, value.literal);
    } else if (Array.isArray(value.operand)) {
      for (const item of value.operand) {
        values.append(`${name}[${value.operator}][]`, item);
      }
    } else {
      values.append(`${name}[${value.operator}]`, value.operand);
    }
  }
  if (endpoint.method === 'POST') {
    return {
      url: endpoint.url,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: values.toString(),
    };
  }
  const url = new URL(endpoint.url);
  url.search = values.toString();
  return { url, method: 'GET', headers: {} };
}

/** How a probe's parameters are written in evidence: `name[$ne]=…` or `{"name": {"$ne": "…"}}`. */
export function shapeOf(endpoint: Endpoint, carried: Record<string, Carried>): string {
  const show = (v: string) => (v.startsWith('v') && v.length === 11 ? '<random>' : v);
  if (endpoint.json) {
    const parts = Object.entries(carried).map(([name, value]) => {
      if ('literal' in value) {
        return `${JSON.stringify(name)}: ${JSON.stringify(show(value.literal))}`;
      }
      const operand = Array.isArray(value.operand) ? value.operand.map(show) : show(value.operand);
      return `${JSON.stringify(name)}: {"${value.operator}": ${JSON.stringify(operand)}}`;
    });
    return `{${parts.join(', ')}}`;
  }
  return Object.entries(carried)
    .map(([name, value]) => {
      if ('literal' in value) {
        return `${name}=${show(value.literal)}`;
      }
      return Array.isArray(value.operand)
        ? value.operand.map((item) => `${name}[${value.operator}][]=${show(item)}`).join('&')
        : `${name}[${value.operator}]=${show(value.operand)}`;
    })
    .join('&');
}

/** MongoDB-style error text: the driver's and server's, Mongoose's cast errors, mingo's and PouchDB's. */
const nosqlErrors: RegExp[] = [
  /unknown (?:top level )?operator:? ?['"`]?\$\w+/i,
  /\bMongo(?:Server|Network|Driver)?Error\b/,
  /\bCastError\b|Cast to \w+ failed for value[^\n]{0,120}\$(?:ne|gt|in)\b/,
  /\bBSON\w*Error\b|\bBSON field\b/,
  /Can't canonicalize query|\$in needs an array|invalid operator:? ?\$\w+/i,
];

/** The first MongoDB-style error in a body, or null. */
export function findNosqlError(body: string): string | null {
  const text = body.slice(0, 300_000);
  for (const pattern of nosqlErrors) {
    const match = pattern.exec(text);
    if (match) {
      return match[0].slice(0, 120);
    }
  }
  return null;
}

/** Sends one probe; null when no answer came. */
export type NosqlSender = (carried: Record<string, Carried>) => Promise<HttpResponse | null>;

const sizeOf = (response: HttpResponse) => {
  const location = header(response, 'location');
  return `HTTP ${response.status}${location ? ` to ${location.slice(0, 100)}` : ''}, ${response.body.length} bytes`;
};

/** A short excerpt where two answers' texts part (whitespace collapsed), for the evidence. */
export function excerptWhereDiffers(a: string, b: string, size = 60): string {
  const x = a.replace(/\s+/g, ' ');
  const y = b.replace(/\s+/g, ' ');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) {
    i++;
  }
  const start = Math.max(0, i - 10);
  return x
    .slice(start, start + size)
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
}

const literals = (names: string[], value: () => string): Record<string, Carried> =>
  Object.fromEntries(names.map((name) => [name, { literal: value() }]));
const operators = (
  names: string[],
  operator: '$ne' | '$gt' | '$in',
  operand: () => string | string[],
): Record<string, Carried> =>
  Object.fromEntries(names.map((name) => [name, { operator, operand: operand() }]));

interface Verdict {
  /** The parameters the injection is reported on. */
  params: string[];
  evidence: string;
}

/**
 * Judges one set of parameters (one alone, or several together: then the verdict names those the true
 * answer needs). Every parameter of one request carries the same random value, which the comparison
 * removes from the answers as a reflection.
 */
export async function judgeNosql(
  endpoint: Endpoint,
  names: string[],
  send: NosqlSender,
  together = false,
): Promise<Verdict | null> {
  const r = random();
  const literal = literals(names, () => r);
  const ne = operators(names, '$ne', () => r);
  const seen = async (carried: Record<string, Carried>, value: string) => {
    const response = await send(carried);
    return response ? { response, observation: observe(response, value, value) } : null;
  };
  const [lit1, lit2, lit3, op1] = await Promise.all([
    seen(literal, r),
    seen(literal, r),
    seen(literal, r),
    seen(ne, r),
  ]);
  if (!lit1 || !lit2 || !lit3 || !op1) {
    return null;
  }
  const place = `${endpoint.json ? 'JSON body' : endpoint.method === 'POST' ? 'form body' : 'query string'} of ${endpoint.method} ${endpoint.url.origin}${endpoint.url.pathname}`;
  // Error-based: a database error the operator causes and the literal does not, twice.
  const error = findNosqlError(op1.response.body);
  if (error && ![lit1, lit2, lit3].some((lit) => findNosqlError(lit.response.body))) {
    const again = await seen(
      operators(names, '$gt', () => ''),
      '',
    );
    const second = again ? findNosqlError(again.response.body) : null;
    if (again && second) {
      return {
        params: names,
        evidence: `${place}: ${shapeOf(endpoint, ne)} answered a database error "${error}" (${sizeOf(op1.response)}), ${shapeOf(endpoint, literal)} did not (${sizeOf(lit1.response)}); ${shapeOf(
          endpoint,
          operators(names, '$gt', () => ''),
        )} answered "${second}" too`,
      };
    }
  }
  const baseline = new Baseline([lit1.observation, lit2.observation, lit3.observation]);
  if (baseline.tooNoisy || !baseline.differs(op1.observation)) {
    return null;
  }
  // Repeats, and the operator-against-operator pair, in rounds of a random order with fresh values: a page
  // that changes by itself cannot pass them all.
  for (let round = 0; round < rounds; round++) {
    const fresh = random();
    const nothing = random();
    const checks = shuffle([
      { truth: true, value: fresh, carried: operators(names, '$ne', () => fresh) },
      { truth: true, value: '', carried: operators(names, '$gt', () => '') },
      { truth: false, value: nothing, carried: operators(names, '$in', () => [nothing]) },
      { truth: false, value: fresh, carried: literals(names, () => fresh) },
    ]);
    for (const check of checks) {
      const answer = await seen(check.carried, check.value);
      const ok = answer
        ? check.truth
          ? baseline.alike(answer.observation, op1.observation) && baseline.differs(answer.observation)
          : baseline.same(answer.observation)
        : false;
      if (!ok) {
        return null;
      }
    }
  }
  let needed = names;
  if (together) {
    // Each parameter the true answer needs: back at its literal, the answer is the literal's.
    needed = [];
    for (const name of names) {
      const answer = await seen({ ...ne, [name]: { literal: r } }, r);
      if (answer && baseline.same(answer.observation)) {
        needed.push(name);
      }
    }
    // None alone is needed (any of them suffices with the others): the injection is proven on the set.
    if (needed.length === 0) {
      needed = names;
    }
  }
  const excerpt = excerptWhereDiffers(op1.response.body, lit1.response.body);
  return {
    params: needed,
    evidence: `${place}: ${shapeOf(endpoint, ne)} answered ${sizeOf(op1.response)}${excerpt ? ` ("${excerpt}")` : ''}, unlike ${shapeOf(endpoint, literal)} (${sizeOf(lit1.response)}); the same in ${rounds} more rounds with fresh values, where ${shapeOf(
      endpoint,
      operators(names, '$gt', () => ''),
    )} answered like the operator while ${shapeOf(
      endpoint,
      operators(names, '$in', () => ['<random>']),
    )} answered like the literal`,
  };
}

/** Judges an endpoint: each parameter alone, then, when none answered, all of them together. */
export async function nosqlEndpointFindings(
  endpoint: Endpoint,
  params: string[],
  send: NosqlSender,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const report = (verdict: Verdict) => {
    for (const param of verdict.params) {
      findings.push(
        webappFinding('web.nosqli', { location: where(endpoint, param), evidence: verdict.evidence }),
      );
    }
  };
  for (const param of params) {
    const verdict = await judgeNosql(endpoint, [param], send);
    if (verdict) {
      report(verdict);
    }
  }
  // An anti-forgery token keeps the app's value: as an operator it would only get the request refused.
  const together = params.filter((param) => !antiForgeryField.test(param)).slice(0, maxTogether);
  if (findings.length === 0 && together.length > 1) {
    const verdict = await judgeNosql(endpoint, together, send, true);
    if (verdict) {
      report(verdict);
    }
  }
  return findings;
}

/**
 * The endpoints the probes take, each with its parameters (injectionTargets' order and bound), as many as
 * the request budget pays for when nothing is found; `skipped` is how many it does not.
 */
export function nosqlPlan(
  endpoints: Endpoint[],
  maxParams: number,
  requestsLeft: number,
): { targets: [Endpoint, string[]][]; skipped: number } {
  const byEndpoint = new Map<Endpoint, string[]>();
  for (const { endpoint, param } of injectionTargets(endpoints, maxParams)) {
    byEndpoint.set(endpoint, [...(byEndpoint.get(endpoint) ?? []), param]);
  }
  const wanted = [...byEndpoint.entries()];
  const targets: [Endpoint, string[]][] = [];
  let budget = requestsLeft;
  for (const entry of wanted) {
    const cost = (entry[1].length + (entry[1].length > 1 ? 1 : 0)) * nosqlRequestsPerParam;
    if (cost > budget) {
      break;
    }
    budget -= cost;
    targets.push(entry);
  }
  return { targets, skipped: wanted.length - targets.length };
}

export interface NosqlOptions {
  maxParams: number;
  requestsLeft: number;
  onFinding: (finding: Finding) => void;
  onProgress: (done: number, total: number) => void;
}

/**
 * The operator probes on the parameters the injection probes take (injectionTargets: the same bound),
 * grouped by endpoint; endpoints beyond the request budget are not started.
 */
export async function nosqlFindings(
  client: HttpClient,
  endpoints: Endpoint[],
  options: NosqlOptions,
): Promise<{ skipped: number }> {
  const lane = new TimingLane();
  const { targets, skipped } = nosqlPlan(endpoints, options.maxParams, options.requestsLeft);
  let done = 0;
  await forEachLimit(
    targets,
    4,
    async ([endpoint, params]) => {
      // A login is probed without the scan's session, as every parameter probe does.
      const anonymous = probedLoggedOut(endpoint);
      const send: NosqlSender = (carried) => {
        const request = nosqlRequest(endpoint, carried);
        return lane.shared(() =>
          client.tryRequest(request.url, {
            method: request.method,
            headers: request.headers,
            anonymous,
            ...(request.body === undefined ? {} : { body: request.body }),
          }),
        );
      };
      for (const finding of await nosqlEndpointFindings(endpoint, params, send)) {
        options.onFinding(finding);
      }
      options.onProgress(++done, targets.length);
    },
    client.signal,
  );
  return { skipped };
}
