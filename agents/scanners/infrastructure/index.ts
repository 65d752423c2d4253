// The infrastructure scanner: TCP connect scan, service identification on open ports, service checks,
// TLS checks on ports that speak TLS. Uses `nmap -sV` for version names only when it is installed.
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { ScanStoppedError } from '../core/http-client.ts';
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
  const phases = new PhaseRunner(progress, options.signal);
  const findings = new FindingSet();
  let open: number[] = [];
  let firstByteMs = 500;
  await phases.run('port scan', 60, async (tick) => {
    const result = await connectScan({
      address: target.address,
      ports,
      signal: options.signal,
      onProgress: tick,
    });
    requests += result.attempts;
    open = result.open;
    // Services that speak first do so within a few RTTs; never wait less than 400 ms nor more than 3 s.
    firstByteMs = Math.min(3000, Math.max(400, Math.round(result.rttMs * 10)));
  });
  let detectionCut: string | null = null;
  await phases.run('service detection', 30, async (tick) => {
    const detection = await detectServices({
      target,
      host,
      display,
      open,
      scanned: ports.length,
      firstByteMs,
      signal: options.signal,
      onProgress: tick,
      count: (n) => {
        requests += n;
      },
    });
    detection.findings.forEach((finding) => findings.add(finding));
    detectionCut = detection.cutShort;
    if (options.signal?.aborted) {
      throw new ScanStoppedError('aborted');
    }
  });
  // UDP has no connect scan: only SNMP is probed, on the UDP ports asked for, a few datagrams each.
  await phases.run('udp services', 5, async (tick) => {
    let done = 0;
    await forEachLimit(
      udpPorts,
      4,
      async (port) => {
        requests += 8;
        const wait = Math.min(3000, Math.max(1000, firstByteMs * 2));
        const found = await snmpFindings(
          target.address,
          port,
          `${display}:${port}/udp`,
          wait,
          options.signal,
        );
        found.forEach((finding) => findings.add(finding));
        tick(++done, udpPorts.length);
      },
      options.signal,
    );
  });
  await phases.run('version detection', 10, async () => {
    const versions = await nmapVersions(target.address, open, options.signal);
    for (const finding of findings.list()) {
      const port = Number(finding.location.split(':').pop());
      const version = versions.get(port);
      if (finding.rule_id === 'infra.open-port' && version) {
        finding.evidence = `${finding.evidence} (nmap: ${version})`;
      }
    }
  });
  progress.finish();
  return {
    target: options.target,
    type: 'infrastructure',
    findings: findings.list(),
    stats: { requests, duration_ms: Date.now() - started },
    // Open ports the host's budget left unexamined make the result partial (the findings say which).
    partial: phases.partial || detectionCut !== null,
  };
}
