// Real, badly configured Redis and Memcached (Debian packages, installed by run.sh when missing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { debian } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { realServicePorts, startRealServices } from '../fixtures/real-services.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const needs = requires(debian('redis-server'), debian('memcached'));

describe('infrastructure scanner against real services', needs, () => {
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
