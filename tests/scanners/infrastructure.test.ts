// Runs inside a private network namespace (tests/scanners/run.sh): the only listeners are our fixtures,
// so a full port sweep of 127.0.0.1 touches nothing else on the machine.
import os from 'node:os';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findingSchema } from '../../shared/findings.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import { connectScan } from '../../agents/scanners/infrastructure/connect-scan.ts';
import { bannerPorts, startBannerServices } from '../fixtures/services/banner-services.ts';
import { startSlowFtp } from '../fixtures/services/slow-ftp.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { scaler } from '../helpers/budget.ts';
import { measure } from './measure.ts';

describe('infrastructure scanner', () => {
  let services: RunningFixture;
  beforeAll(async () => {
    services = await startBannerServices();
  });
  afterAll(async () => {
    await services.close();
  });

  it('finds every planted service weakness on the default port list, with no false positives', async () => {
    const result = await runScan('infrastructure', { target: services.target, mode: 'local' });
    const m = measure(result.findings, services.planted, '127.0.0.1');
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    result.findings.forEach((finding) => findingSchema.parse(finding));
    // Every check ran whole and filed only rules it declares.
    expect(result.phase_errors).toEqual([]);
    expect(result.partial).toBe(false);
    const evidence = (port: number) =>
      result.findings.find((f) => f.rule_id === 'infra.open-port' && f.location.endsWith(`:${port}`))
        ?.evidence;
    expect(evidence(22)).toMatch(/^ssh: SSH-2.0-OpenSSH_7.4/);
    expect(evidence(6379)).toMatch(/^redis/);
    expect(evidence(27017)).toMatch(/^mongodb/);
    expect(evidence(5432)).toMatch(/^postgresql/);
    expect(evidence(3306)).toMatch(/^mysql: .*5\.7\.33/);
    expect(evidence(9200)).toMatch(/^elasticsearch/);
  });

  it('sweeps all 65535 ports and finds exactly the listening ones', async () => {
    const result = await connectScan({
      address: '127.0.0.1',
      ports: Array.from({ length: 65535 }, (_, i) => i + 1),
    });
    expect(result.open).toEqual([...bannerPorts].sort((a, b) => a - b));
    // Shared between one thread per core (at most 4), each port tried once; only a port whose attempt timed
    // out (a loopback answer late on a loaded machine) or met no free descriptor is tried again. How many
    // that is depends on the machine's load (the bench reports it); that nothing else is, does not.
    expect(result.threads).toBe(Math.min(4, os.availableParallelism()));
    expect(result.attempts).toBe(65535 + result.retried);
    expect(result.retried).toBeLessThan(65535);
  }, 120_000);

  it('scans only the requested ports', async () => {
    const result = await runScan('infrastructure', {
      target: services.target,
      mode: 'local',
      ports: '20-23,6379',
    });
    const ports = result.findings.filter((f) => f.rule_id === 'infra.open-port').map((f) => f.location);
    expect(ports.sort()).toEqual(['127.0.0.1:21', '127.0.0.1:22', '127.0.0.1:23', '127.0.0.1:6379']);
    expect(result.stats.requests).toBeGreaterThanOrEqual(5);
  });

  it('stops a full sweep within 2 seconds of an abort', async () => {
    // 2 s on a quiet machine; on a loaded one, as much more as it is measured slower right now.
    const within = scaler();
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 300);
    const result = await runScan('infrastructure', {
      target: services.target,
      mode: 'local',
      ports: '-',
      signal: controller.signal,
    });
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(Math.max(2000, within(700)));
    expect(result.partial).toBe(true);
  });

  it('finds anonymous FTP on a slow server: a late multi-line greeting, replies after a second, split', async () => {
    // The loopback RTT makes the scanner's first-byte wait 400 ms; this server greets after 1.5 s and
    // answers each command after 1 s, as a loaded machine or one doing reverse DNS lookups does.
    const ftp = await startSlowFtp({ greetingMs: 1500, replyMs: 1000 });
    try {
      const result = await runScan('infrastructure', {
        target: ftp.target,
        mode: 'local',
        ports: String(ftp.port),
      });
      const m = measure(result.findings, ftp.planted, ftp.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      expect(result.findings.find((f) => f.rule_id === 'infra.ftp.anonymous')?.evidence).toMatch(
        /230 Login successful/,
      );
    } finally {
      await ftp.close();
    }
  }, 30_000);

  it('refuses loopback in hosted mode before connecting', async () => {
    await expect(
      runScan('infrastructure', { target: '127.0.0.1', mode: 'hosted', ports: '22' }),
    ).rejects.toThrow(/target refused/);
  });
});
