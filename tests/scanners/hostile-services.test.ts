// Hostile hosts against the infrastructure scanner (tests/fixtures/hostile/service-servers.ts), each
// scanned through runScan in the private network namespace: the scan ends within the case's budget, its
// result stays small, the lie produces no finding, the real findings are still there, and nothing a host
// sent reaches a finding as anything but printable text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hostLimits, type HostLimits } from '../../agents/scanners/infrastructure/host-budget.ts';
import { detectServices } from '../../agents/scanners/infrastructure/service-detection.ts';
import { runIsolatedScan, type IsolatedScanResult } from '../../agents/scanners/isolation/scan-process.ts';
import { runScan, type ScanResult } from '../../agents/scanners/run-scan.ts';
import { listenOnEvery, onLines, type Listening } from '../fixtures/hostile/listeners.ts';
import type { HostileTarget } from '../fixtures/hostile/case.ts';
import {
  cipherRules,
  hostileServiceCases,
  kexPorts,
  telnetPorts,
  tlsLiarPort,
} from '../fixtures/hostile/service-servers.ts';
import { manyServicePorts, startManyServices } from '../fixtures/hostile/many-services.ts';

/** What the slowest case may take beyond its budget on a loaded machine before the test itself gives up. */
const margin = 60_000;
/** A result of one host, however hostile, stays this small (JSON bytes). */
const maxResultBytes = 200_000;
// C0 and C1 control characters and DEL: nothing a target sends may reach a terminal as a command.
// eslint-disable-next-line no-control-regex -- control characters are what must not get through
const control = /[\x00-\x1f\x7f-\x9f]/;

interface Scanned {
  result: IsolatedScanResult;
  ms: number;
  /** What the scan process logged (warnings it survived, its stderr). */
  logged: string[];
}

/** Scanned as the worker and the CLI scan: in a process of its own, its tree's memory measured. */
async function scan(running: HostileTarget): Promise<Scanned> {
  const started = performance.now();
  const logged: string[] = [];
  const result = await runIsolatedScan('infrastructure', {
    target: running.target,
    mode: 'local',
    // Intrusive checks run too: a hostile server must not lead them to a false write either.
    allowIntrusive: true,
    ...(running.ports ? { ports: running.ports } : {}),
    onLog: (line) => logged.push(line),
  });
  return { result, ms: performance.now() - started, logged };
}

const rules = (result: ScanResult) => result.findings.map((f) => f.rule_id);
const at = (result: ScanResult, rule: string) =>
  result.findings.filter((f) => f.rule_id === rule).map((f) => Number(f.location.split(':').pop()));

describe.each(hostileServiceCases)('hostile host: $name', (hostile) => {
  let running: HostileTarget;
  let scanned: Scanned;
  beforeAll(async () => {
    running = await hostile.start();
    scanned = await scan(running);
  }, hostile.budgetMs + margin);
  afterAll(async () => {
    await running?.close();
  });

  it('ends within its budget with a bounded result, its processes within their memory cap, no crash', () => {
    expect(scanned.ms).toBeLessThan(hostile.budgetMs);
    expect(JSON.stringify(scanned.result).length).toBeLessThan(maxResultBytes);
    const { resources, stopped } = scanned.result;
    expect(resources.peak_memory_mb!).toBeLessThanOrEqual(resources.memory_cap_mb);
    expect(stopped?.reason).not.toBe('crashed');
    expect(scanned.logged.filter((line) => /unhandled rejection|uncaught exception/.test(line))).toEqual([]);
  });

  it('files no finding the lie produces, and the real ones', () => {
    const found = rules(scanned.result);
    expect(found.filter((rule) => hostile.forbidden.includes(rule))).toEqual([]);
    expect((hostile.expected ?? []).filter((rule) => !found.includes(rule))).toEqual([]);
  });

  it('keeps every field of every finding printable', () => {
    for (const finding of scanned.result.findings) {
      for (const value of [finding.title, finding.location, finding.evidence, finding.remediation]) {
        expect(value).not.toMatch(control);
      }
    }
  });

  if (hostile.name === 'tarpit-every-port' || hostile.name === 'same-banner-every-port') {
    it('reports the host once as answering everywhere, and its ports in a handful of findings', () => {
      const { result } = scanned;
      const verdicts = result.findings.filter((f) => f.rule_id === 'infra.host.tarpit');
      expect(verdicts).toHaveLength(1);
      expect(verdicts[0]!.evidence).toMatch(
        /^1010 of the 1010 scanned ports accepted a connection; 1010 answered alike/,
      );
      expect(result.findings.length).toBeLessThanOrEqual(5);
      // The ports it stands for are named, ranges compacted.
      const open = result.findings.filter((f) => f.rule_id === 'infra.open-port');
      expect(open).toHaveLength(1);
      expect(open[0]!.evidence).toMatch(/the same on the 1010 ports that answered alike \(1, 3-4, /);
      expect(result.partial).toBe(false);
    });
  }

  if (hostile.name === 'same-banner-every-port') {
    it('collapses the finding every port repeats into one that lists its places', () => {
      const cleartext = scanned.result.findings.filter((f) => f.rule_id === 'infra.ftp.cleartext');
      expect(cleartext).toHaveLength(1);
      expect(cleartext[0]!.location).toBe('127.0.0.1:1');
      expect(cleartext[0]!.evidence).toMatch(/AUTH TLS answered "500 Unknown command\."/);
      expect(cleartext[0]!.evidence).toMatch(/examined in full: 1, 21-23, 25, /);
    });
  }

  if (hostile.name === 'telnet-ff-ff') {
    it('names Telnet only where options were really negotiated', () => {
      expect(at(scanned.result, 'infra.telnet.open')).toEqual([telnetPorts.genuine]);
      const open = scanned.result.findings.filter((f) => f.rule_id === 'infra.open-port');
      expect(open.find((f) => f.location.endsWith(`:${telnetPorts.genuine}`))?.evidence).toBe(
        'telnet: option negotiation: DO TERMINAL-TYPE, DO TERMINAL-SPEED, WILL ECHO; login:',
      );
      for (const port of [telnetPorts.escaped, telnetPorts.unregistered]) {
        expect(open.find((f) => f.location.endsWith(`:${port}`))?.evidence).toMatch(/^unknown: /);
      }
    });
  }

  if (hostile.name === 'tls-accepts-every-suite') {
    it('says the TLS answers are not to be believed, and why', () => {
      const open = scanned.result.findings.find((f) => f.location.endsWith(`:${tlsLiarPort}`));
      expect(open?.evidence).toMatch(/chose a cipher suite that does not exist/);
      expect(rules(scanned.result).filter((rule) => cipherRules.includes(rule))).toEqual([]);
    });
  }

  if (hostile.name === 'ssh-huge-kexinit') {
    it('reads a padded KEXINIT whole, and says what a KEXINIT past the packet limit left unread', () => {
      const { result } = scanned;
      expect(at(result, 'infra.ssh.weak-kex').sort()).toEqual([kexPorts.padded, kexPorts.oversized]);
      expect(at(result, 'infra.ssh.weak-cipher')).toEqual([kexPorts.padded]);
      expect(at(result, 'infra.ssh.weak-mac')).toEqual([kexPorts.padded]);
      expect(at(result, 'infra.ssh.weak-host-key')).toEqual([kexPorts.padded]);
      expect(at(result, 'infra.ssh.kexinit-unread')).toEqual([kexPorts.oversized]);
      const unread = result.findings.find((f) => f.rule_id === 'infra.ssh.kexinit-unread')!;
      expect(unread.evidence).toMatch(/more than the 262144 any OpenSSH client accepts/);
      expect(unread.evidence).toMatch(/not read in full: host key, ciphers, MACs, compression, languages$/);
      const cipher = result.findings.find((f) => f.rule_id === 'infra.ssh.weak-cipher')!;
      expect(cipher.evidence).toBe('offered: 3des-cbc (3DES, 64-bit block, CBC), arcfour (RC4)');
    });
  }
});

describe('a host with many real, distinct services', () => {
  let running: Awaited<ReturnType<typeof startManyServices>>;
  let result: ScanResult;
  beforeAll(async () => {
    running = await startManyServices();
    result = await runScan('infrastructure', { target: running.target, mode: 'local', allowIntrusive: true });
  }, 240_000);
  afterAll(async () => {
    await running?.close();
  });

  it('is not called a tarpit, and every service is reported on its own port', () => {
    expect(rules(result)).not.toContain('infra.host.tarpit');
    expect(at(result, 'infra.open-port').sort((a, b) => a - b)).toEqual(
      [...manyServicePorts].sort((a, b) => a - b),
    );
    expect(result.partial).toBe(false);
    // No finding stands for other ports.
    expect(result.findings.filter((f) => /answered alike|not examined/.test(f.evidence))).toEqual([]);
  });

  it('still finds what the services really expose', () => {
    const m = running.planted.filter(
      (p) => !result.findings.some((f) => f.rule_id === p.rule_id && f.location.endsWith(p.location)),
    );
    expect(m).toEqual([]);
  });
});

describe('the limits of one host, on a host with more open ports than they allow', () => {
  // 400 ports, each greeting with an FTP banner of its own (a honeypot imitating services), under limits
  // scaled down so the suite stays quick: the product's are hostLimits.
  const ports = Array.from({ length: 400 }, (_, i) => 20_000 + i);
  const limits: HostLimits = { ...hostLimits, lookedAt: 128, examined: 40 };
  let running: Listening;
  beforeAll(async () => {
    running = await listenOnEvery(ports, (socket, port) => {
      socket.write(`220 FTP service ${port} ready\r\n`);
      onLines(socket, (line) =>
        socket.write(/^QUIT/i.test(line) ? '221 Bye.\r\n' : '500 Unknown command.\r\n'),
      );
    });
  });
  afterAll(async () => {
    await running?.close();
  });
  const detect = (overrides: Partial<HostLimits>) =>
    detectServices({
      target: { host: '127.0.0.1', address: '127.0.0.1', family: 4 },
      host: '127.0.0.1',
      display: '127.0.0.1',
      open: ports,
      scanned: ports.length,
      firstByteMs: 400,
      count: () => undefined,
      limits: { ...limits, ...overrides },
    });

  it('examines no more ports than allowed, says which it left, and calls the host what it is', async () => {
    const { findings, cutShort } = await detect({});
    const open = findings.filter((f) => f.rule_id === 'infra.open-port');
    // Forty examined ports, one finding for the rest.
    expect(open).toHaveLength(41);
    expect(open.filter((f) => /not examined/.test(f.evidence))).toHaveLength(1);
    expect(open.find((f) => /not examined/.test(f.evidence))!.evidence).toMatch(
      /^open; 360 open ports were not examined \(beyond the 128 ports whose first answers are compared, and the 40 examined in full\)/,
    );
    // The finding each examined port repeats word for word is said once.
    expect(findings.filter((f) => f.rule_id === 'infra.ftp.cleartext')).toHaveLength(1);
    expect(findings.find((f) => f.rule_id === 'infra.host.tarpit')?.evidence).toBe(
      '400 of the 400 scanned ports accepted a connection; their first answers differ (128 different answers on 128 ports compared)',
    );
    // The verdict explains the ports left out: the result is not cut short.
    expect(cutShort).toBeNull();
  }, 120_000);

  it('stops when the connection budget runs out, and says so', async () => {
    const { findings, cutShort } = await detect({ connections: 300 });
    expect(cutShort).toBe('the per-host budget of 300 connections ran out');
    expect(findings.find((f) => /not examined/.test(f.evidence))?.evidence).toMatch(
      /not examined \(the per-host budget of 300 connections ran out\)/,
    );
  }, 120_000);
});
