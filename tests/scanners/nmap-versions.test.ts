// nmap's version names in the infrastructure scan (agents/scanners/infrastructure/nmap.ts), with nmap on as
// it is by default (the other scanner suites turn it off to stay fast): real OpenSSH and nginx from Debian
// are named with the version Debian installed (dpkg's own record, not ours), Redis and Memcached by their
// product names, and a service nmap cannot name gets no name.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import { aptPorts, startNginx, startSshd } from '../fixtures/services/apt-servers.ts';
import { debian } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { realServicePorts, startRealServices } from '../fixtures/real-services.ts';
import { budget } from '../helpers/budget.ts';
import { requires } from '../helpers/requirements.ts';

// Read when the scan starts (tests/scanners/run.sh turns it off for every other suite).
process.env.VIGIL_SCAN_NMAP = 'on';

/** The upstream version and Debian revision dpkg records for a package: `1:9.2p1-2+deb12u7` → 9.2p1, 2+deb12u7. */
function installed(pkg: string): { upstream: string; revision: string } {
  const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });
  const match = /^(?:\d+:)?(.+)-([^-]+)$/.exec(version.trim());
  if (!match) {
    throw new Error(`unexpected version of ${pkg}: ${version}`);
  }
  return { upstream: match[1]!, revision: match[2]! };
}

const needs = requires(
  debian('nmap'),
  debian('openssh-server'),
  debian('nginx'),
  debian('redis-server'),
  debian('memcached'),
);

describe('version names from nmap -sV on real servers', needs, () => {
  const fixtures: RunningFixture[] = [];
  let silent: net.Server;
  const held = new Set<net.Socket>();
  let findings: Finding[] = [];

  // Four servers, then one scan of five ports with nmap's version detection: about 15 s on a quiet machine.
  beforeAll(async () => {
    fixtures.push(...(await Promise.all([startSshd(), startNginx(), startRealServices()])));
    // Accepts and says nothing, then closes: nmap's probes get no answer it can name.
    silent = net.createServer((socket) => {
      held.add(socket.on('error', () => undefined).on('close', () => held.delete(socket)));
      socket.end();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const ports = [
      aptPorts.sshd,
      aptPorts.nginx,
      realServicePorts.redis,
      realServicePorts.memcached,
      (silent.address() as AddressInfo).port,
    ];
    const result = await runScan('infrastructure', {
      target: '127.0.0.1',
      mode: 'local',
      ports: ports.join(','),
    });
    findings = result.findings;
  }, budget(20_000));
  afterAll(async () => {
    // A probe that never closed its side would hold the server open.
    held.forEach((socket) => socket.destroy());
    await Promise.all([
      ...fixtures.map((fixture) => fixture.close()),
      new Promise((resolve) => silent?.close(resolve)),
    ]);
  }, budget(6_000));

  const openPort = (port: number) =>
    findings.find((f) => f.rule_id === 'infra.open-port' && f.location === `127.0.0.1:${port}`)?.evidence ??
    '';

  it('names OpenSSH with its Debian revision and nginx with the versions dpkg installed, Redis and Memcached by product', () => {
    const ssh = installed('openssh-server');
    expect(openPort(aptPorts.sshd)).toContain(`(nmap: OpenSSH ${ssh.upstream} Debian ${ssh.revision}`);
    expect(openPort(aptPorts.nginx)).toContain(`(nmap: nginx ${installed('nginx').upstream}`);
    // nmap's light version scan does not ask Redis and Memcached for their versions: the products alone.
    expect(openPort(realServicePorts.redis)).toContain('(nmap: Redis key-value store)');
    expect(openPort(realServicePorts.memcached)).toContain('(nmap: Memcached)');
  });

  it('adds no name to a port whose service it cannot name', () => {
    const evidence = openPort((silent.address() as AddressInfo).port);
    expect(evidence).not.toBe('');
    expect(evidence).not.toContain('(nmap:');
  });
});
