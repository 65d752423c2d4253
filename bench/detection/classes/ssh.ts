// SSH: our KEXINIT and auth-method checks beside ssh-audit, on the weak and the hardened OpenSSH fixtures.
import { runScan } from '../../../agents/scanners/run-scan.ts';
import { aptPorts, startSshd } from '../../../tests/fixtures/apt-servers.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool } from '../types.ts';

/** ssh-audit's verdict per algorithm line: `(kex) name -- [fail] …` and its continuation lines. */
export function sshAuditVerdicts(text: string): { kind: string; algorithm: string; verdicts: string[] }[] {
  const out: { kind: string; algorithm: string; verdicts: string[] }[] = [];
  for (const line of text.split('\n')) {
    const head = /^\((kex|key|enc|mac)\) (\S+)\s+-- \[(\w+)\]/.exec(line);
    if (head) {
      out.push({ kind: head[1]!, algorithm: head[2]!, verdicts: [head[3]!] });
      continue;
    }
    const more = /^\s+`- \[(\w+)\]/.exec(line);
    if (more && out.length > 0) {
      out.at(-1)!.verdicts.push(more[1]!);
    }
  }
  return out;
}

const ruleOfKind: Record<string, string> = {
  kex: 'infra.ssh.weak-kex',
  enc: 'infra.ssh.weak-cipher',
  mac: 'infra.ssh.weak-mac',
  key: 'infra.ssh.weak-host-key',
};

function sshAudit(port: number): ReferenceTool {
  return {
    name: 'ssh-audit',
    command: 'ssh-audit',
    aptPackage: 'ssh-audit',
    covers: (issue) => Object.values(ruleOfKind).includes(issue.rule_id),
    async run(fixture: RunningFixture) {
      const run = await runTool('ssh-audit', ['-n', '-p', String(port), fixture.target], {
        timeoutMs: 60_000,
      });
      // A [fail] verdict on an algorithm names it weak; [warn] alone is advice (ssh-audit warns on
      // OpenSSH's own defaults too), so only failures count as reported problems.
      const failing = sshAuditVerdicts(run.stdout).filter((v) => v.verdicts.includes('fail'));
      const rules = new Set(failing.map((v) => ruleOfKind[v.kind]).filter((r): r is string => Boolean(r)));
      const found: PlantedIssue[] = [...rules].map((rule_id) => ({ rule_id, location: `:${port}` }));
      const plantedRules = new Set(fixture.planted.map((p) => p.rule_id));
      const falsePositives = failing
        .filter((v) => !plantedRules.has(ruleOfKind[v.kind] ?? ''))
        .map((v) => `${v.kind} ${v.algorithm}`);
      return { found, falsePositives, ms: run.ms };
    },
  };
}

const sshFixture = (hardened: boolean): DetectionFixture => {
  const port = hardened ? aptPorts.sshdHardened : aptPorts.sshd;
  return {
    name: hardened
      ? 'OpenSSH, keys only, default algorithms (silent)'
      : 'OpenSSH, SHA-1 kex, CBC/3DES, MD5 MACs, passwords',
    classOf: (issue) => (issue.rule_id === 'infra.open-port' ? 'ports' : 'ssh'),
    start: () => startSshd(hardened),
    scan: (f) => runScan('infrastructure', { target: f.target, mode: 'local', ports: String(port) }),
    tools: [sshAudit(port)],
  };
};

export const fixtures: DetectionFixture[] = [sshFixture(false), sshFixture(true)];
