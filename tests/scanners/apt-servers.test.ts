// Real nginx, OpenSSH and vsftpd from Debian packages (installed by run.sh when missing), configured
// badly on purpose; each scan is measured for recall and precision against the fixture's planted list.
import { existsSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { aptBinaries, aptPorts, startNginx, startSshd, startVsftpd } from '../fixtures/apt-servers.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { measure } from './measure.ts';

/** The suite title, with the reason when the server is not installed (the suite then skips). */
function title(name: keyof typeof aptBinaries, what: string): string {
  return existsSync(aptBinaries[name])
    ? what
    : `${what} (skipped: ${aptBinaries[name]} is not installed; run.sh installs it with apt-get as root)`;
}
const missing = (name: keyof typeof aptBinaries) => !existsSync(aptBinaries[name]);

describe.skipIf(missing('nginx'))(title('nginx', 'web scanner against a misconfigured real nginx'), () => {
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

describe.skipIf(missing('sshd'))(title('sshd', 'infrastructure scanner against a weak real OpenSSH'), () => {
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

describe.skipIf(missing('sshd'))(
  title('sshd', 'infrastructure scanner against a hardened real OpenSSH'),
  () => {
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
  },
);

describe.skipIf(missing('vsftpd'))(title('vsftpd', 'infrastructure scanner against a real vsftpd'), () => {
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
