// The infrastructure scanner: TCP connect scan, service identification on open ports, service checks,
// TLS checks on ports that speak TLS. Uses `nmap -sV` for version names only when it is installed.
import { runChecks } from '../core/checks.ts';
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { PHASE_SHARE } from '../core/limits.ts';
import { PhaseRunner } from '../core/phases.ts';
import { ProgressTracker } from '../core/progress.ts';
import { TargetPolicy } from '../target-policy.ts';
import { parsePorts, parseUdpPorts } from './ports.ts';
import { infrastructureChecks } from './registry.ts';
import type { InfrastructureScan } from './registry.ts';

/** Host name or IP from "host", "host:port", "[v6]" or a URL. */
export function parseHost(target: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    return new URL(target).hostname.replace(/^\[|\]$/g, '');
  }
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(target);
  if (bracketed) {
    return bracketed[1]!;
  }
  return target.split(':').length === 2 ? target.split(':')[0]! : target;
}

export async function runInfrastructureScan(options: ScanOptions): Promise<ScanResult> {
  const started = Date.now();
  const ports = parsePorts(options.ports);
  const udpPorts = parseUdpPorts(options.ports);
  const policy = new TargetPolicy(options.mode, options.resolver);
  const host = parseHost(options.target);
  const target = await policy.resolve(host);
  const display = target.family === 6 ? `[${target.address}]` : target.address;
  const findings = new FindingSet(options.onFinding);
  const scan: InfrastructureScan = {
    options,
    target,
    host,
    display,
    ports,
    udpPorts,
    findings,
    open: [],
    firstByteMs: 500,
    requests: 0,
  };
  const progress = new ProgressTracker(options.onProgress, () => scan.requests);
  const phases = new PhaseRunner(progress, options.signal, {
    phaseMs: (options.timeLimitMs ?? Number.POSITIVE_INFINITY) * PHASE_SHARE,
  });
  const categories = await runChecks(infrastructureChecks, scan, phases, findings, {
    allowIntrusive: options.allowIntrusive === true,
  });
  progress.finish();
  return {
    target: options.target,
    type: 'infrastructure',
    findings: findings.list(),
    stats: { requests: scan.requests, duration_ms: Date.now() - started },
    categories,
    ...phases.outcome(),
  };
}
