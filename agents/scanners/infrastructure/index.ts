// The infrastructure scanner: TCP connect scan, service identification on open ports, service checks,
// TLS checks on ports that speak TLS. Uses `nmap -sV` for version names only when it is installed.
import type { Finding } from '../../../shared/findings.ts';
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { FindingSet } from '../core/context.ts';
import { ScanStoppedError } from '../core/http-client.ts';
import { PHASE_SHARE } from '../core/limits.ts';
import { withMoreEvidence } from '../core/rule.ts';
import { PhaseRunner } from '../core/phases.ts';
import { forEachLimit } from '../core/pool.ts';
import { ProgressTracker } from '../core/progress.ts';
import { speaksTls, tlsFindings } from '../core/tls-check.ts';
import { TargetPolicy } from '../target-policy.ts';
import { serviceFindings } from './checks.ts';
import { connectScan } from './connect-scan.ts';
import { identifyService } from './identify.ts';
import type { ServiceInfo } from './identify.ts';
import { nmapVersions } from './nmap.ts';
import { parsePorts, parseUdpPorts } from './ports.ts';
import { infrastructureFinding } from './rules.ts';
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
  const services = new Map<number, ServiceInfo | null>();
  await phases.run('service detection', 30, async (tick, signal) => {
    let done = 0;
    await forEachLimit(
      open,
      16,
      async (port) => {
        // Every open port is also asked for a ServerHello, alongside the clear-text probes: a TLS port
        // either stays silent to them (Node, GnuTLS, OpenSSL) or answers HTTP 400 "plain HTTP sent to an
        // HTTPS port" (nginx, Apache). Once it answers TLS, the clear-text probes stop.
        const tlsAnswered = new AbortController();
        const [identified, tls] = await Promise.all([
          identifyService(
            target.address,
            host,
            port,
            { firstByteMs },
            AbortSignal.any([signal, tlsAnswered.signal]),
          ),
          speaksTls(target, port, firstByteMs * 4).then((yes) => {
            if (yes) {
              tlsAnswered.abort();
            }
            return yes;
          }),
        ]);
        requests += 10;
        const service = tls ? { name: 'tls', banner: 'TLS handshake' } : identified;
        services.set(port, service);
        const location = `${display}:${port}`;
        const checkFindings: Finding[] = tls
          ? await tlsFindings(target, port, location, {
              timeoutMs: firstByteMs * 4,
              signal,
              // Each TLS probe is a connection of its own: counted like the others.
              pace: () => {
                requests += 1;
                return Promise.resolve();
              },
            })
          : service
            ? await serviceFindings(
                {
                  address: target.address,
                  host,
                  port,
                  location,
                  timing: { firstByteMs },
                  signal,
                },
                service,
              )
            : [];
        const described = services.get(port);
        findings.add(
          infrastructureFinding('infra.open-port', {
            location,
            evidence: described ? `${described.name}: ${described.banner}` : 'open; service not identified',
          }),
        );
        checkFindings.forEach((finding) => findings.add(finding));
        tick(++done, open.length);
      },
      signal,
    );
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
