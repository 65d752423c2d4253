// The infrastructure scanner's checks, in the order they run (core/checks.ts).
import type { Check } from '../core/checks.ts';
import type { ScanOptions } from '../core/context.ts';
import type { FindingSet } from '../core/context.ts';
import { ScanStoppedError } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { withMoreEvidence } from '../core/rule.ts';
import { tlsRules } from '../core/tls-rules.ts';
import type { TlsRuleId } from '../core/tls-rules.ts';
import type { ResolvedTarget } from '../target-policy.ts';
import { connectScan } from './connect-scan.ts';
import { nmapVersions } from './nmap.ts';
import { infrastructureRules } from './rules.ts';
import type { InfrastructureRuleId } from './rules.ts';
import { ftpWriteFindings } from './ftp-checks.ts';
import { detectServices } from './service-detection.ts';
import { snmpFindings } from './snmp.ts';

/** What the infrastructure scan's checks share. */
export interface InfrastructureScan {
  readonly options: ScanOptions;
  readonly target: ResolvedTarget;
  /** The host as the customer named it (SNI, Host headers). */
  readonly host: string;
  /** The address as locations show it ("[::1]" for IPv6). */
  readonly display: string;
  readonly ports: readonly number[];
  readonly udpPorts: readonly number[];
  /** The scan's findings, for checks that revise what earlier ones filed. */
  readonly findings: FindingSet;
  open: number[];
  /** How long a service that speaks first may take to do so, from the sweep's round-trip times. */
  firstByteMs: number;
  /** Connections and datagrams sent so far. */
  requests: number;
}

const serviceRules = [
  ...(Object.keys(infrastructureRules) as InfrastructureRuleId[]).filter(
    (id) => id !== 'infra.snmp.default-community' && id !== 'infra.ftp.anonymous-write',
  ),
  ...(Object.keys(tlsRules) as TlsRuleId[]),
];

export const infrastructureChecks: readonly Check<InfrastructureScan>[] = [
  {
    id: 'infra.port-scan',
    phase: 'port scan',
    share: 60,
    category: 'active',
    rules: [],
    summary: 'TCP connect sweep of the port list, with timeouts adapted to the measured round trip.',
    async run(scan, { tick, signal }) {
      const result = await connectScan({
        address: scan.target.address,
        ports: [...scan.ports],
        signal,
        onProgress: tick,
      });
      scan.requests += result.attempts;
      scan.open = result.open;
      // Services that speak first do so within a few RTTs; never wait less than 400 ms nor more than 3 s.
      scan.firstByteMs = Math.min(3000, Math.max(400, Math.round(result.rttMs * 10)));
    },
  },
  {
    id: 'infra.services',
    phase: 'service detection',
    share: 29,
    category: 'active',
    rules: serviceRules,
    summary:
      'Identifies the service on each open port (banners, probes, a ClientHello) within a per-host budget, then runs its checks: SSH, TLS, databases, file shares, remote shells, cleartext protocols.',
    async run(scan, { tick, signal, report, incomplete }) {
      const detection = await detectServices({
        target: scan.target,
        host: scan.host,
        display: scan.display,
        open: scan.open,
        scanned: scan.ports.length,
        firstByteMs: scan.firstByteMs,
        signal,
        onProgress: tick,
        onFinding: (finding) => report([finding]),
        count: (n) => {
          scan.requests += n;
        },
      });
      report(detection.findings);
      // Open ports the host's budget left unexamined: the scan is partial, and says why (a stop or the
      // phase's deadline is recorded by the phase runner itself).
      if (detection.cutShort && !signal.aborted) {
        incomplete(detection.cutShort);
      }
      if (signal.aborted) {
        throw new ScanStoppedError('aborted');
      }
    },
  },
  {
    id: 'infra.ftp-write',
    phase: 'service detection',
    share: 1,
    // Intrusive: anonymous FTP's write is proven by storing a marker file, and deleting it.
    category: 'intrusive',
    rules: ['infra.ftp.anonymous-write'],
    summary:
      'On each FTP server that let the anonymous user in: one uniquely named marker file stored (in the login directory or a directory that looks writable) and deleted at once.',
    async run(scan, { tick, signal, report }) {
      const servers = scan.findings
        .list()
        .filter((f) => f.rule_id === 'infra.ftp.anonymous')
        .map((f) => ({ location: f.location, port: Number(f.location.split(':').pop()) }))
        .filter(({ port }) => Number.isInteger(port) && port > 0 && port < 65536);
      let done = 0;
      for (const { location, port } of servers) {
        if (signal.aborted) {
          break;
        }
        scan.requests += 1;
        report(
          await ftpWriteFindings({
            address: scan.target.address,
            host: scan.host,
            port,
            location,
            timing: { firstByteMs: scan.firstByteMs },
            signal,
          }),
        );
        tick(++done, servers.length);
      }
    },
  },
  {
    id: 'infra.snmp',
    phase: 'udp services',
    share: 5,
    category: 'active',
    rules: ['infra.snmp.default-community'],
    summary:
      'UDP has no connect scan: SNMP is asked with common communities on the UDP ports in the list, a few datagrams each.',
    async run(scan, { tick, signal, report }) {
      let done = 0;
      await forEachLimit(
        scan.udpPorts,
        4,
        async (port) => {
          scan.requests += 8;
          const wait = Math.min(3000, Math.max(1000, scan.firstByteMs * 2));
          report(await snmpFindings(scan.target.address, port, `${scan.display}:${port}/udp`, wait, signal));
          tick(++done, scan.udpPorts.length);
        },
        signal,
      );
    },
  },
  {
    id: 'infra.versions',
    phase: 'version detection',
    share: 10,
    category: 'active',
    rules: [],
    summary: "Adds nmap -sV's version names to the open ports' evidence, when nmap is installed.",
    async run(scan, { signal }) {
      const versions = await nmapVersions(scan.target.address, scan.open, signal);
      scan.findings.revise((finding) => {
        const version = versions.get(Number(finding.location.split(':').pop()));
        return finding.rule_id === 'infra.open-port' && version
          ? withMoreEvidence(finding, `(nmap: ${version})`)
          : finding;
      });
    },
  },
];
