// Real, badly configured Redis and Memcached (Debian packages, installed by run.sh when missing).
import { execFileSync } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { realServicePorts, startRealServices } from '../fixtures/real-services.ts';
import { measure } from './measure.ts';

const installed = ['redis-server', 'memcached'].every((bin) => {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

describe.skipIf(!installed)('infrastructure scanner against real services', () => {
  let services: RunningFixture;
  beforeAll(async () => {
    services = await startRealServices();
  });
  afterAll(async () => {
    await services.close();
  });

  it('finds unauthenticated Redis and Memcached by protocol on non-standard ports', async () => {
    const result = await runScan('infrastructure', {
      target: '127.0.0.1',
      mode: 'local',
      ports: `${realServicePorts.redis},${realServicePorts.memcached}`,
    });
    const m = measure(result.findings, services.planted, '127.0.0.1');
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.findings.find((f) => f.rule_id === 'infra.redis.unauthenticated')?.evidence).toMatch(
      /redis_version \d/,
    );
  });
});
