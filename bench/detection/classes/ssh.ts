// SSH: our KEXINIT, group-exchange, host-key, version and auth-method checks beside ssh-audit and nmap's
// SSH scripts, on six real servers: the weak and hardened OpenSSH, OpenSSH with legacy host keys, an
// older Debian build of OpenSSH, Dropbear and ProFTPD's mod_sftp.
import { runScan } from '../../../agents/scanners/run-scan.ts';
import { aptPorts, startSshd } from '../../../tests/fixtures/apt-servers.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import {
  sshPorts,
  startDropbear,
  startLegacySshd,
  startOldDebianSshd,
  startProftpdSftp,
} from '../../../tests/fixtures/ssh-servers.ts';
import { nmapScripts } from '../nmap-scripts.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool } from '../types.ts';

export interface SshAuditVerdict {
  kind: string;
  algorithm: string;
  verdicts: { level: string; text: string }[];
}

/** ssh-audit's verdicts per algorithm line: `(kex) name [(N-bit)] -- [fail] reason` and its continuation lines. */
export function sshAuditVerdicts(text: string): SshAuditVerdict[] {
  const out: SshAuditVerdict[] = [];
  // Guard: ssh-audit colours its output when it thinks it writes to a terminal.
  const plain = text.replaceAll(String.fromCharCode(27), '').replace(/\[[0-9;]*m/g, '');
  for (const line of plain.split('\n')) {
    const head = /^\((kex|key|enc|mac)\) (\S+)(?: \(\d+-bit\))?\s+-- \[(\w+)\] (.*)$/.exec(line);
    if (head) {
      out.push({ kind: head[1]!, algorithm: head[2]!, verdicts: [{ level: head[3]!, text: head[4]! }] });
      continue;
    }
    const more = /^\s+`- \[(\w+)\] (.*)$/.exec(line);
    if (more && out.length > 0) {
      out.at(-1)!.verdicts.push({ level: more[1]!, text: more[2]! });
    }
  }
  return out;
}

/** ssh-audit fails NIST P-curves ("weak elliptic curves"): a policy, not a known break; not counted. */
const curvePolicy = (text: string) => /weak elliptic curves/.test(text);

/** The rule one failing ssh-audit line stands for, or null when its only failures are the curve policy. */
function ruleOfVerdict(v: SshAuditVerdict): string | null {
  const failures = v.verdicts.filter((x) => x.level === 'fail' && !curvePolicy(x.text));
  if (failures.length === 0) {
    return null;
  }
  if (v.kind === 'kex') {
    const smallGroup = failures.every((x) => /small \d+-bit modulus/.test(x.text));
    return v.algorithm.includes('group-exchange') && smallGroup
      ? 'infra.ssh.small-dh-group'
      : 'infra.ssh.weak-kex';
  }
  return (
    { key: 'infra.ssh.weak-host-key', enc: 'infra.ssh.weak-cipher', mac: 'infra.ssh.weak-mac' }[v.kind] ??
    null
  );
}

const sshAuditCovers = new Set([
  'infra.ssh.weak-kex',
  'infra.ssh.weak-host-key',
  'infra.ssh.weak-cipher',
  'infra.ssh.weak-mac',
  'infra.ssh.small-dh-group',
  'infra.ssh.known-cve',
]);

/** Tool results as planted issues: what it found among the planted ones, and its claims that are not. */
function tally(fixture: RunningFixture, port: number, claims: { rule: string; what: string }[]) {
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
      const verdicts = sshAuditVerdicts(run.stdout);
      // A [fail] names a weak algorithm; [warn] alone is advice (it warns on OpenSSH's own defaults too).
      const claims = verdicts.flatMap((v) => {
        const rule = ruleOfVerdict(v);
        return rule ? [{ rule, what: `${v.kind} ${v.algorithm}` }] : [];
      });
      for (const cve of run.stdout.matchAll(/^\(cve\) (CVE-\d+-\d+)/gm)) {
        claims.push({ rule: 'infra.ssh.known-cve', what: cve[1]! });
      }
      const curves = verdicts.filter((v) =>
        v.verdicts.some((x) => x.level === 'fail' && curvePolicy(x.text)),
      );
      return {
        ...tally(fixture, port, claims),
        ms: run.ms,
        note: curves.length
          ? `${curves.length} NIST-curve [fail]s not counted (policy, not a break)`
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
      const claims: { rule: string; what: string }[] = [];
      const methods = scripts.get('ssh-auth-methods') ?? '';
      for (const method of methods.match(/^\s+(password|keyboard-interactive)$/gm) ?? []) {
        claims.push({ rule: 'infra.ssh.password-auth', what: `auth ${method.trim()}` });
      }
      // "1024 <fingerprint> (RSA)": a DSA key, or an RSA key under 2048 bits, is weak on its face.
      for (const key of (scripts.get('ssh-hostkey') ?? '').matchAll(/^\s+(\d+) \S+ \((\w+)\)$/gm)) {
        if (key[2] === 'DSA' || (key[2] === 'RSA' && Number(key[1]) < 2048)) {
          claims.push({ rule: 'infra.ssh.weak-host-key', what: `${key[1]}-bit ${key[2]} host key` });
        }
      }
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
