// Real nginx, OpenSSH and vsftpd from Debian packages (installed by run.sh when missing), configured
// badly on purpose; each scan is measured for recall and precision against the fixture's planted list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import {
  aptBinaries,
  aptPorts,
  startNginx,
  startSshd,
  startVsftpd,
} from '../fixtures/services/apt-servers.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const needs = (name: keyof typeof aptBinaries) => requires(debianFile(aptBinaries[name]));

describe('web scanner against a misconfigured real nginx', needs('nginx'), () => {
  let nginx: RunningFixture;
  beforeAll(async () => {
    nginx = await startNginx();
  });
  afterAll(async () => {
    await nginx?.close();
  });

  it('finds every planted issue, and nothing else', async () => {
    const result = await runScan('webapp', { target: nginx.target, mode: 'local' });
    const m = measure(result.findings, nginx.planted, nginx.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.findings.find((f) => f.rule_id === 'web.disclosure.server-version')?.evidence).toMatch(
      /nginx\/\d+\.\d+/,
    );
  });
});

describe('infrastructure scanner against a weak real OpenSSH', needs('sshd'), () => {
  let sshd: RunningFixture;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd?.close();
  });

  it('reads the weak algorithms from its KEXINIT and the password login from its auth methods, and nothing else', async () => {
    const result = await runScan('infrastructure', {
      target: sshd.target,
      mode: 'local',
      ports: String(aptPorts.sshd),
    });
    const m = measure(result.findings, sshd.planted, sshd.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    const evidence = (rule: string) => result.findings.find((f) => f.rule_id === rule)?.evidence;
    expect(evidence('infra.open-port')).toMatch(/^ssh: SSH-2\.0-OpenSSH_\d/);
    expect(evidence('infra.ssh.weak-kex')).toMatch(/diffie-hellman-group1-sha1/);
    expect(evidence('infra.ssh.weak-cipher')).toMatch(/3des-cbc/);
    expect(evidence('infra.ssh.weak-mac')).toMatch(/hmac-md5/);
    expect(evidence('infra.ssh.password-auth')).toMatch(/lists: .*password/);
  });
});

describe('infrastructure scanner against a hardened real OpenSSH', needs('sshd'), () => {
  let sshd: RunningFixture;
  beforeAll(async () => {
    sshd = await startSshd(true);
  });
  afterAll(async () => {
    await sshd?.close();
  });

  it('reports only the open port when logins need a key and the algorithms are the defaults', async () => {
    const result = await runScan('infrastructure', {
      target: sshd.target,
      mode: 'local',
      ports: String(aptPorts.sshdHardened),
    });
    const m = measure(result.findings, sshd.planted, sshd.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.findings.find((f) => f.rule_id === 'infra.open-port')?.evidence).toMatch(
      /^ssh: SSH-2\.0-OpenSSH_\d/,
    );
  });
});

describe('infrastructure scanner against a real vsftpd', needs('vsftpd'), () => {
  let ftp: RunningFixture;
  beforeAll(async () => {
    ftp = await startVsftpd();
  });
  afterAll(async () => {
    await ftp?.close();
  });

  it('logs in anonymously, and reports nothing else', async () => {
    const result = await runScan('infrastructure', {
      target: ftp.target,
      mode: 'local',
      ports: String(aptPorts.vsftpd),
    });
    const m = measure(result.findings, ftp.planted, ftp.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.findings.find((f) => f.rule_id === 'infra.open-port')?.evidence).toMatch(/vsFTPd/);
  });
});
