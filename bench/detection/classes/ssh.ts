// SSH: our KEXINIT, group-exchange, host-key, version and auth-method checks beside ssh-audit and nmap's
// SSH scripts, on six real servers: the weak and hardened OpenSSH, OpenSSH with legacy host keys, an
// older Debian build of OpenSSH, Dropbear and ProFTPD's mod_sftp.
import { runScan } from '../../../agents/scanners/run-scan.ts';
import { aptPorts, startSshd } from '../../../tests/fixtures/services/apt-servers.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import {
  sshPorts,
  startDropbear,
  startLegacySshd,
  startOldDebianSshd,
  startProftpdSftp,
} from '../../../tests/fixtures/ssh/ssh-servers.ts';
import { nmapScripts } from '../nmap-scripts.ts';
import { nmapSshClaims, sshAuditClaims } from '../ssh-parsers.ts';
import type { Claim } from '../ssh-parsers.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool } from '../types.ts';

const sshAuditCovers = new Set([
  'infra.ssh.weak-kex',
  'infra.ssh.weak-host-key',
  'infra.ssh.weak-cipher',
  'infra.ssh.weak-mac',
  'infra.ssh.small-dh-group',
  'infra.ssh.known-cve',
]);

/** Tool results as planted issues: what it found among the planted ones, and its claims that are not. */
function tally(fixture: RunningFixture, port: number, claims: Claim[]) {
  const planted = new Set(fixture.planted.map((p) => p.rule_id));
  const rules = new Set(claims.map((c) => c.rule));
  const found: PlantedIssue[] = [...rules].map((rule_id) => ({ rule_id, location: `:${port}` }));
  const falsePositives = claims.filter((c) => !planted.has(c.rule)).map((c) => c.what);
  return { found, falsePositives };
}

function sshAudit(port: number): ReferenceTool {
  return {
    name: 'ssh-audit',
    command: 'ssh-audit',
    aptPackage: 'ssh-audit',
    covers: (issue) => sshAuditCovers.has(issue.rule_id),
    async run(fixture) {
      const run = await runTool('ssh-audit', ['-n', '-p', String(port), fixture.target], {
        timeoutMs: 120_000,
      });
      const { claims, curvePolicyFails, toolOnly } = sshAuditClaims(run.stdout);
      return {
        ...tally(fixture, port, claims),
        toolOnly,
        ms: run.ms,
        note: curvePolicyFails
          ? `${curvePolicyFails} NIST-curve [fail]s not counted (policy, not a break)`
          : undefined,
      };
    },
  };
}

/** nmap's ssh-auth-methods and ssh-hostkey give facts a reader judges; ssh2-enum-algos lists without verdicts. */
function nmapSsh(port: number): ReferenceTool {
  return {
    name: 'nmap ssh-auth-methods,ssh-hostkey,ssh2-enum-algos',
    command: 'nmap',
    aptPackage: 'nmap',
    covers: (issue) => ['infra.ssh.password-auth', 'infra.ssh.weak-host-key'].includes(issue.rule_id),
    async run(fixture) {
      const run = await nmapScripts({ tcp: [port] }, ['ssh-auth-methods', 'ssh-hostkey', 'ssh2-enum-algos']);
      const scripts = run.ports.get(String(port))?.scripts ?? new Map<string, string>();
      const claims = nmapSshClaims(scripts);
      return {
        ...tally(fixture, port, claims),
        ms: run.ms,
        note: 'ssh2-enum-algos lists algorithms without verdicts (not counted)',
      };
    },
  };
}

const sshFixture = (name: string, port: number, start: () => Promise<RunningFixture>): DetectionFixture => ({
  name,
  classOf: (issue) => (issue.rule_id === 'infra.open-port' ? 'ports' : 'ssh'),
  start,
  scan: (f) => runScan('infrastructure', { target: f.target, mode: 'local', ports: String(port) }),
  tools: [sshAudit(port), nmapSsh(port)],
});

export const fixtures: DetectionFixture[] = [
  sshFixture('OpenSSH, SHA-1 kex, CBC/3DES, MD5 MACs, passwords', aptPorts.sshd, () => startSshd(false)),
  sshFixture('OpenSSH, keys only, hardened algorithms (silent)', aptPorts.sshdHardened, () =>
    startSshd(true),
  ),
  sshFixture(
    'OpenSSH, DSA + 1024-bit RSA keys, GEX-SHA1, SHA-1 MACs, kbd-interactive',
    sshPorts.legacy,
    startLegacySshd,
  ),
  sshFixture('OpenSSH 9.2p1 Debian 2+deb12u7 (known CVEs), hardened', sshPorts.oldDebian, startOldDebianSshd),
  sshFixture('Dropbear 2022.83 defaults', sshPorts.dropbear, startDropbear),
  sshFixture('ProFTPD mod_sftp defaults, 1024-bit GEX groups', sshPorts.proftpd, startProftpdSftp),
];
