// The SSH reference tools' output as claims in our rule ids: ssh-audit's text report (a [fail] names a weak
// algorithm; [warn] alone is advice, it warns on OpenSSH's own defaults too) and nmap's ssh-auth-methods and
// ssh-hostkey scripts (facts a reader judges). Tested on what the tools printed for real servers
// (ssh-parsers.recorded.json).

/** One thing a tool reports, as the rule it stands for and what it named. */
export interface Claim {
  rule: string;
  what: string;
}

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

/**
 * ssh-audit's report as claims, how many algorithms it failed only for the NIST-curve policy, and every
 * [fail] that maps to none of our rules (those included), as `kind algorithm: reasons`.
 */
export function sshAuditClaims(text: string): {
  claims: Claim[];
  curvePolicyFails: number;
  toolOnly: string[];
} {
  const verdicts = sshAuditVerdicts(text);
  const claims = verdicts.flatMap((v) => {
    const rule = ruleOfVerdict(v);
    return rule ? [{ rule, what: `${v.kind} ${v.algorithm}` }] : [];
  });
  for (const cve of text.matchAll(/^\(cve\) (CVE-\d+-\d+)/gm)) {
    claims.push({ rule: 'infra.ssh.known-cve', what: cve[1]! });
  }
  const curvePolicyFails = verdicts.filter((v) =>
    v.verdicts.some((x) => x.level === 'fail' && curvePolicy(x.text)),
  ).length;
  const toolOnly = verdicts
    .filter((v) => v.verdicts.some((x) => x.level === 'fail') && ruleOfVerdict(v) === null)
    .map(
      (v) =>
        `${v.kind} ${v.algorithm}: ${v.verdicts
          .filter((x) => x.level === 'fail')
          .map((x) => x.text)
          .join('; ')}`,
    );
  return { claims, curvePolicyFails, toolOnly };
}

/** nmap's ssh-auth-methods and ssh-hostkey outputs (script id → text) as claims. */
export function nmapSshClaims(scripts: Map<string, string>): Claim[] {
  const claims: Claim[] = [];
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
  return claims;
}
