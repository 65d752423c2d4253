// The API scanner: operations from the OpenAPI document, then authentication, error, injection, method,
// rate-limit, CORS and header checks.
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { runChecks } from '../core/checks.ts';
import type { CategoryReport } from '../core/checks.ts';
import { startHttpScan } from '../core/http-scan.ts';
import { parseWebTarget } from '../webapp/index.ts';
import { apiChecks, apiLimits } from './registry.ts';
import type { ApiScan } from './registry.ts';

export { apiLimits };

export async function runApiScan(options: ScanOptions): Promise<ScanResult> {
  const started = Date.now();
  const target = parseWebTarget(options.target);
  const { policy, client, progress, phases, findings } = startHttpScan(options, apiLimits);
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
