// The API scanner: operations from the OpenAPI document, then authentication, error, injection, method,
// rate-limit, CORS and header checks.
import type { Finding } from '../../../shared/findings.ts';
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { HttpClient } from '../core/http-client.ts';
import { PHASE_SHARE } from '../core/limits.ts';
import { PhaseRunner } from '../core/phases.ts';
import { reachTarget } from '../core/reach.ts';
import { ProgressTracker } from '../core/progress.ts';
import { TargetPolicy } from '../target-policy.ts';
import { parseWebTarget } from '../webapp/index.ts';
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

export async function runApiScan(options: ScanOptions): Promise<ScanResult> {
  const started = Date.now();
  const target = parseWebTarget(options.target);
  const policy = new TargetPolicy(options.mode, options.resolver);
  const client = new HttpClient({
    policy,
    signal: options.signal,
    maxRequests: apiLimits.maxRequests,
    timeoutMs: apiLimits.timeoutMs,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  const progress = new ProgressTracker(options.onProgress, () => client.requests);
  const phases = new PhaseRunner(progress, options.signal, {
    phaseMs: (options.timeLimitMs ?? Number.POSITIVE_INFINITY) * PHASE_SHARE,
    onPhase: (signal) => client.scope(signal),
  });
  const findings = new FindingSet(options.onFinding);
  const addAll = (list: Finding[]) => list.forEach((finding) => findings.add(finding));
  let operations: Operation[] = [];
  try {
    await policy.assertUrl(target);
    await phases.run('openapi', 5, async () => {
      await reachTarget(client, target, (why) => phases.fail('openapi', why));
      operations = (await loadOperations(client, target, options.openapi)).operations.slice(
        0,
        apiLimits.maxOperations,
      );
    });
    const gets = operations.filter((op) => op.method === 'GET');
    await phases.run('authentication', 20, async () =>
      addAll(await authAndHeaderFindings(client, operations)),
    );
    await phases.run('error handling', 15, async () => addAll(await errorFindings(client, operations)));
    await phases.run('injection', 20, async () => addAll(await injectionFindings(client, operations)));
    await phases.run('methods', 10, async () => addAll(await methodFindings(client, operations, target)));
    await phases.run('cors', 10, async () => {
      for (const url of [...new Set([target.href, ...gets.slice(0, 6).map((op) => op.url.href)])]) {
        const result = await apiCors(client, new URL(url));
        const location = `${new URL(url).origin}${new URL(url).pathname}`;
        if (result.reflected) {
          findings.add(apiFinding('api.cors.reflected-origin', { location, evidence: result.reflected }));
        }
        if (result.nullOrigin) {
          findings.add(apiFinding('api.cors.null-origin', { location, evidence: result.nullOrigin }));
        }
      }
    });
    await phases.run('rate limiting', 20, async () => {
      addAll(await rateLimitFindings(client, rateLimitCandidates(gets, target)));
    });
  } finally {
    client.close();
  }
  progress.finish();
  return {
    target: options.target,
    type: 'api',
    findings: findings.list(),
    stats: { requests: client.requests, duration_ms: Date.now() - started },
    ...phases.outcome(),
  };
}
