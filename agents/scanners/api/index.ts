// The API scanner: operations from the OpenAPI document, then authentication, error, injection, method,
// rate-limit, CORS and header checks.
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { runChecks } from '../core/checks.ts';
import type { CategoryReport } from '../core/checks.ts';
import { HttpClient } from '../core/http-client.ts';
import { PHASE_SHARE } from '../core/limits.ts';
import { PhaseRunner } from '../core/phases.ts';
import { ProgressTracker } from '../core/progress.ts';
import { TargetPolicy } from '../target-policy.ts';
import { parseWebTarget } from '../webapp/index.ts';
import { apiChecks, apiLimits } from './registry.ts';
import type { ApiScan } from './registry.ts';

export { apiLimits };

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
  const scan: ApiScan = { options, client, target, operations: [] };
  let categories: CategoryReport;
  try {
    await policy.assertUrl(target);
    categories = await runChecks(apiChecks, scan, phases, findings, {
      allowIntrusive: options.allowIntrusive === true,
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
    categories,
    ...phases.outcome(),
  };
}
