// The API scanner's checks, in the order they run (core/checks.ts).
import type { Check } from '../core/checks.ts';
import type { HttpClient } from '../core/http-client.ts';
import { reachTarget } from '../core/reach.ts';
import type { ScanOptions } from '../core/context.ts';
import {
  apiCors,
  authAndHeaderFindings,
  errorFindings,
  injectionFindings,
  methodFindings,
  rateLimitCandidates,
  rateLimitFindings,
} from './checks.ts';
import { loadOperations } from './openapi.ts';
import type { Operation } from './openapi.ts';
import { apiFinding } from './rules.ts';

export const apiLimits = { maxOperations: 80, maxRequests: 1500, timeoutMs: 8000 };

/** What the API scan's checks share. */
export interface ApiScan {
  readonly options: ScanOptions;
  readonly client: HttpClient;
  readonly target: URL;
  operations: Operation[];
}

const gets = (scan: ApiScan) => scan.operations.filter((op) => op.method === 'GET');

export const apiChecks: readonly Check<ApiScan>[] = [
  {
    id: 'api.openapi',
    phase: 'openapi',
    share: 5,
    category: 'passive',
    rules: [],
    summary: 'Reads the OpenAPI 3 document (given, or found at its usual paths) for the operations to check.',
    async run(scan, { incomplete }) {
      await reachTarget(scan.client, scan.target, incomplete);
      const { operations } = await loadOperations(scan.client, scan.target, scan.options.openapi);
      scan.operations = operations.slice(0, apiLimits.maxOperations);
    },
  },
  {
    id: 'api.authentication',
    phase: 'authentication',
    share: 20,
    category: 'active',
    rules: ['api.auth.missing', 'api.header.cache-control-missing', 'api.header.nosniff-missing'],
    summary:
      'Calls secured operations without credentials; reads caching and content-type headers of their answers.',
    async run(scan, { report }) {
      report(await authAndHeaderFindings(scan.client, scan.operations));
    },
  },
  {
    id: 'api.errors',
    phase: 'error handling',
    share: 15,
    category: 'active',
    rules: ['api.error.verbose'],
    summary: 'Sends malformed input and looks for stack traces and internals in the error.',
    async run(scan, { report }) {
      report(await errorFindings(scan.client, scan.operations));
    },
  },
  {
    id: 'api.injection',
    phase: 'injection',
    share: 20,
    category: 'active',
    rules: ['api.sqli.error'],
    summary: 'Puts SQL metacharacters in parameters and looks for database errors.',
    async run(scan, { report }) {
      report(await injectionFindings(scan.client, scan.operations));
    },
  },
  {
    id: 'api.methods',
    phase: 'methods',
    share: 10,
    category: 'active',
    rules: ['api.method.trace', 'api.method.unsafe-unauthenticated'],
    summary: 'Asks which methods operations allow (OPTIONS, TRACE; PUT and DELETE with unparsable bodies).',
    async run(scan, { report }) {
      report(await methodFindings(scan.client, scan.operations, scan.target));
    },
  },
  {
    id: 'api.cors',
    phase: 'cors',
    share: 10,
    category: 'active',
    rules: ['api.cors.reflected-origin', 'api.cors.null-origin'],
    summary: 'Sends a foreign and a null Origin and reads what the API allows.',
    async run(scan, { report }) {
      const urls = [
        ...new Set([
          scan.target.href,
          ...gets(scan)
            .slice(0, 6)
            .map((op) => op.url.href),
        ]),
      ];
      for (const href of urls) {
        const url = new URL(href);
        const result = await apiCors(scan.client, url);
        const location = `${url.origin}${url.pathname}`;
        if (result.reflected) {
          report([apiFinding('api.cors.reflected-origin', { location, evidence: result.reflected })]);
        }
        if (result.nullOrigin) {
          report([apiFinding('api.cors.null-origin', { location, evidence: result.nullOrigin })]);
        }
      }
    },
  },
  {
    id: 'api.rate-limit',
    phase: 'rate limiting',
    share: 20,
    category: 'active',
    rules: ['api.rate-limit.missing'],
    summary: 'A 30-request burst at a public read that really is the API, looking for 429 or limit headers.',
    async run(scan, { report }) {
      report(await rateLimitFindings(scan.client, rateLimitCandidates(gets(scan), scan.target)));
    },
  },
];
