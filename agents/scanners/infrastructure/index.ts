// The infrastructure scanner: TCP connect scan, service identification on open ports, service checks,
// TLS checks on ports that speak TLS. Uses `nmap -sV` for version names only when it is installed.
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { ScanStoppedError } from '../core/http-client.ts';
import { PHASE_SHARE } from '../core/limits.ts';
import { withMoreEvidence } from '../core/rule.ts';
import { PhaseRunner } from '../core/phases.ts';
import { forEachLimit } from '../core/pool.ts';
import { ProgressTracker } from '../core/progress.ts';
import { TargetPolicy } from '../target-policy.ts';
import { connectScan } from './connect-scan.ts';
import { nmapVersions } from './nmap.ts';
import { parsePorts, parseUdpPorts } from './ports.ts';
import { detectServices } from './service-detection.ts';
import { snmpFindings } from './snmp.ts';

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
  let requests = 0;
  const progress = new ProgressTracker(options.onProgress, () => requests);
  const phases = new PhaseRunner(progress, options.signal, {
    phaseMs: (options.timeLimitMs ?? Number.POSITIVE_INFINITY) * PHASE_SHARE,
  });
  const findings = new FindingSet(options.onFinding);
  let open: number[] = [];
  let firstByteMs = 500;
  await phases.run('port scan', 60, async (tick, signal) => {
    const result = await connectScan({
      address: target.address,
      ports,
      signal,
      onProgress: tick,
    });
    requests += result.attempts;
    open = result.open;
    // Services that speak first do so within a few RTTs; never wait less than 400 ms nor more than 3 s.
    firstByteMs = Math.min(3000, Math.max(400, Math.round(result.rttMs * 10)));
  });
  await phases.run('service detection', 30, async (tick, signal) => {
    const detection = await detectServices({
      target,
      host,
      display,
      open,
      scanned: ports.length,
      firstByteMs,
      signal,
      onProgress: tick,
      onFinding: (finding) => findings.add(finding),
      count: (n) => {
        requests += n;
      },
    });
    detection.findings.forEach((finding) => findings.add(finding));
    // Open ports the host's budget left unexamined: the scan is partial, and says why (a stop or the
    // phase's deadline is recorded by the phase runner itself).
    if (detection.cutShort && !signal.aborted) {
      phases.fail('service detection', detection.cutShort);
    }
    if (signal.aborted) {
      throw new ScanStoppedError('aborted');
    }
  });
  // UDP has no connect scan: only SNMP is probed, on the UDP ports asked for, a few datagrams each.
  await phases.run('udp services', 5, async (tick, signal) => {
    let done = 0;
    await forEachLimit(
      udpPorts,
      4,
      async (port) => {
        requests += 8;
        const wait = Math.min(3000, Math.max(1000, firstByteMs * 2));
        const found = await snmpFindings(target.address, port, `${display}:${port}/udp`, wait, signal);
        found.forEach((finding) => findings.add(finding));
        tick(++done, udpPorts.length);
      },
      signal,
    );
  });
  await phases.run('version detection', 10, async (_tick, signal) => {
    const versions = await nmapVersions(target.address, open, signal);
    findings.revise((finding) => {
      const version = versions.get(Number(finding.location.split(':').pop()));
      return finding.rule_id === 'infra.open-port' && version
        ? withMoreEvidence(finding, `(nmap: ${version})`)
        : finding;
    });
  });
  progress.finish();
  return {
    target: options.target,
    type: 'infrastructure',
    findings: findings.list(),
    stats: { requests, duration_ms: Date.now() - started },
    ...phases.outcome(),
  };
}
