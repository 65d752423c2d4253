// Real SSH servers beyond the weak and hardened OpenSSH (tests/fixtures/ssh/ssh-servers.ts): OpenSSH with
// legacy host keys, an older Debian build of OpenSSH with known CVEs, Dropbear and ProFTPD's mod_sftp,
// each with its planted list. They start together once; each scan covers one port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import {
  sshBinaries,
  sshFixtureMissing,
  sshPorts,
  startDropbear,
  startLegacySshd,
  startOldDebianSshd,
  startProftpdSftp,
} from '../fixtures/ssh/ssh-servers.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const fixtures = {
  legacy: { binary: 'sshd', start: startLegacySshd, port: sshPorts.legacy },
  oldDebian: { binary: 'oldSshd', start: startOldDebianSshd, port: sshPorts.oldDebian },
  dropbear: { binary: 'dropbear', start: startDropbear, port: sshPorts.dropbear },
  proftpd: { binary: 'proftpd', start: startProftpdSftp, port: sshPorts.proftpd },
} as const;
type Name = keyof typeof fixtures;

const running = new Map<Name, RunningFixture>();
beforeAll(async () => {
  await Promise.all(
    (Object.keys(fixtures) as Name[])
      .filter((name) => !sshFixtureMissing(fixtures[name].binary))
      .map(async (name) => running.set(name, await fixtures[name].start())),
  );
});
afterAll(async () => {
  await Promise.all([...running.values()].map((fixture) => fixture.close()));
});

/** Scans the fixture's port and checks recall and precision; returns rule → evidence. */
async function scan(name: Name): Promise<Map<string, string>> {
  const fixture = running.get(name)!;
  const result = await runScan('infrastructure', {
    target: fixture.target,
    mode: 'local',
    ports: String(fixtures[name].port),
  });
  const m = measure(result.findings, fixture.planted, fixture.target);
  expect(m.missed).toEqual([]);
  expect(m.unexpected).toEqual([]);
  return new Map(result.findings.map((f) => [f.rule_id, f.evidence]));
}

const needs = (name: Name) => requires(debianFile(sshBinaries[fixtures[name].binary]));

describe('infrastructure scanner against more real SSH servers', () => {
  it(
    'OpenSSH with DSA and 1024-bit RSA host keys, group exchange with SHA-1, SHA-1 MACs',
    needs('legacy'),
    async () => {
      const evidence = await scan('legacy');
      expect(evidence.get('infra.ssh.weak-host-key')).toBe(
        'offered: ssh-dss (DSA: 1024-bit key, SHA-1), ssh-rsa (RSA signatures with SHA-1); RSA host key of 1024 bits (under 2048)',
      );
      expect(evidence.get('infra.ssh.weak-kex')).toBe('offered: diffie-hellman-group-exchange-sha1 (SHA-1)');
      expect(evidence.get('infra.ssh.weak-mac')).toMatch(/hmac-sha1 \(SHA-1\), hmac-sha1-etm@openssh.com/);
      expect(evidence.get('infra.ssh.password-auth')).toMatch(/keyboard-interactive accepts/);
      // Its moduli file holds only 1024-bit primes, but OpenSSH 9.2 never hands out a group under 2048 bits.
      expect(evidence.has('infra.ssh.small-dh-group')).toBe(false);
    },
  );

  it(
    'OpenSSH 9.2p1 at Debian revision 2+deb12u7: its known CVEs, by package revision',
    needs('oldDebian'),
    async () => {
      const evidence = await scan('oldDebian');
      expect(evidence.get('infra.ssh.known-cve')).toMatch(
        /^SSH-2\.0-OpenSSH_9\.2p1 Debian-2\+deb12u7: CVE-2026-35414 \(fixed in Debian 9\.2p1-2\+deb12u10\), CVE-2026-35387/,
      );
    },
  );

  it(
    'Dropbear with its defaults: SHA-1 key exchange and MAC, ssh-rsa, passwords',
    needs('dropbear'),
    async () => {
      const evidence = await scan('dropbear');
      expect(evidence.get('infra.open-port')).toMatch(/^ssh: SSH-2\.0-dropbear_20\d\d/);
      expect(evidence.get('infra.ssh.weak-kex')).toBe('offered: diffie-hellman-group14-sha1 (SHA-1)');
      expect(evidence.get('infra.ssh.weak-host-key')).toBe('offered: ssh-rsa (RSA signatures with SHA-1)');
    },
  );

  it(
    "ProFTPD's mod_sftp: its defaults and a 1024-bit group in group exchange",
    needs('proftpd'),
    async () => {
      const evidence = await scan('proftpd');
      expect(evidence.get('infra.ssh.small-dh-group')).toMatch(/the server sent a 1024-bit prime$/);
      expect(evidence.get('infra.ssh.weak-kex')).toMatch(/rsa1024-sha1 \(1024-bit RSA, SHA-1\)/);
      expect(evidence.get('infra.ssh.weak-cipher')).toMatch(/cast128-cbc \(64-bit block, CBC\)/);
    },
  );
});
