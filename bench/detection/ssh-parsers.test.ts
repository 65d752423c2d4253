// The SSH reference tools' output mapped to our rule ids, on what ssh-audit 2.5.0 and nmap 7.93 really
// printed for the SSH fixtures (ssh-parsers.recorded.json).
import { describe, expect, it } from 'vitest';

import { parseNmapXml } from './nmap-scripts.ts';
import recorded from './ssh-parsers.recorded.json';
import { nmapSshClaims, sshAuditClaims, sshAuditVerdicts } from './ssh-parsers.ts';
import { reviewOf } from './tool-only-review.ts';

const whats = (claims: { rule: string; what: string }[]) => claims.map((c) => `${c.rule} ${c.what}`).sort();

describe('ssh-audit report', () => {
  it('claims each [fail] as its rule, group-exchange moduli apart, and never a [warn] alone', () => {
    const legacy = sshAuditClaims(recorded.sshAudit.legacy);
    // hmac-sha1 only draws [warn]s from ssh-audit 2.5.0: no weak-mac claim.
    expect(whats(legacy.claims)).toEqual([
      'infra.ssh.weak-host-key key rsa-sha2-512',
      'infra.ssh.weak-host-key key ssh-dss',
      'infra.ssh.weak-host-key key ssh-rsa',
      'infra.ssh.weak-kex kex diffie-hellman-group-exchange-sha1',
    ]);
    const proftpd = sshAuditClaims(recorded.sshAudit.proftpd);
    expect(whats(proftpd.claims).filter((w) => w.includes('kex '))).toEqual([
      'infra.ssh.small-dh-group kex diffie-hellman-group-exchange-sha1',
      'infra.ssh.small-dh-group kex diffie-hellman-group-exchange-sha256',
      'infra.ssh.weak-kex kex diffie-hellman-group1-sha1',
      'infra.ssh.weak-kex kex rsa1024-sha1',
    ]);
    expect(new Set(proftpd.claims.map((c) => c.rule))).toEqual(
      new Set([
        'infra.ssh.small-dh-group',
        'infra.ssh.weak-kex',
        'infra.ssh.weak-host-key',
        'infra.ssh.weak-cipher',
        'infra.ssh.weak-mac',
      ]),
    );
  });

  it('counts NIST-curve policy fails apart, and claims nothing on a hardened build', () => {
    const proftpd = sshAuditClaims(recorded.sshAudit.proftpd);
    expect(proftpd.curvePolicyFails).toBe(3);
    // Listed, not dropped: the bench's review of tool-only findings judges them (a policy, not a break).
    expect(proftpd.toolOnly).toHaveLength(3);
    expect(proftpd.toolOnly.every((line) => /elliptic curves/.test(line))).toBe(true);
    expect(proftpd.claims.some((c) => c.what.includes('nistp'))).toBe(false);
    const dropbear = sshAuditClaims(recorded.sshAudit.dropbear);
    expect(dropbear.curvePolicyFails).toBe(3);
    expect(whats(dropbear.claims)).toEqual(['infra.ssh.weak-host-key key ssh-rsa']);
    // Every [fail] outside our rules in the recorded runs has a verdict.
    const lines = Object.values(recorded.sshAudit).flatMap((text) => sshAuditClaims(text).toolOnly);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => reviewOf('ssh-audit', line)?.verdict !== 'policy')).toEqual([]);
    // ssh-audit 2.5.0 lists no CVE for OpenSSH 9.2p1, whatever the Debian revision.
    expect(sshAuditClaims(recorded.sshAudit['old-debian'])).toEqual({
      claims: [],
      curvePolicyFails: 0,
      toolOnly: [],
    });
  });

  it('reads continuation lines and strips colours', () => {
    const coloured = `\u001b[0;31m(kex) diffie-hellman-group1-sha1 -- [fail] using small 1024-bit modulus\u001b[0m\n                                  \`- [warn] using weak hashing algorithm\n`;
    expect(sshAuditVerdicts(coloured)).toEqual([
      {
        kind: 'kex',
        algorithm: 'diffie-hellman-group1-sha1',
        verdicts: [
          { level: 'fail', text: 'using small 1024-bit modulus' },
          { level: 'warn', text: 'using weak hashing algorithm' },
        ],
      },
    ]);
  });
});

describe('nmap SSH scripts', () => {
  it('reads the port and its scripts from the XML, and claims password methods and weak host keys', () => {
    const port = parseNmapXml(recorded.nmap.legacy).get('2301');
    expect(port?.state).toBe('open');
    expect(port?.service).toMatch(/^ssh OpenSSH 9\.2p1/);
    expect([...(port?.scripts.keys() ?? [])].sort()).toEqual([
      'ssh-auth-methods',
      'ssh-hostkey',
      'ssh2-enum-algos',
    ]);
    expect(whats(nmapSshClaims(port!.scripts))).toEqual([
      'infra.ssh.password-auth auth keyboard-interactive',
      'infra.ssh.weak-host-key 1024-bit DSA host key',
      'infra.ssh.weak-host-key 1024-bit RSA host key',
    ]);
  });
});
