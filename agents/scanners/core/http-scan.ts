// What the web-application and API scanners set up alike for one scan: the target policy, an HTTP client
// within the scanner's limits (each phase's requests scoped to that phase), progress, the phase runner and
// the finding set.
import { TargetPolicy } from '../target-policy.ts';
import { FindingSet, type ScanOptions } from './context.ts';
import { HttpClient } from './http-client.ts';
import { PHASE_SHARE } from './limits.ts';
import { PhaseRunner } from './phases.ts';
import { ProgressTracker } from './progress.ts';

export function startHttpScan(options: ScanOptions, limits: { maxRequests: number; timeoutMs: number }) {
  const policy = new TargetPolicy(options.mode, options.resolver);
  const client = new HttpClient({
    policy,
    signal: options.signal,
    maxRequests: limits.maxRequests,
    timeoutMs: limits.timeoutMs,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  const progress = new ProgressTracker(options.onProgress, () => client.requests);
  const phases = new PhaseRunner(progress, options.signal, {
    phaseMs: (options.timeLimitMs ?? Number.POSITIVE_INFINITY) * PHASE_SHARE,
    onPhase: (signal) => client.scope(signal),
  });
  const findings = new FindingSet(options.onFinding);
  return { policy, client, progress, phases, findings };
}
