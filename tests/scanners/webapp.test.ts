// Runs inside a private network namespace (tests/scanners/run.sh): the only listeners are our fixtures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findingSchema } from '../../shared/findings.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import type { ScanProgress } from '../../agents/scanners/core/progress.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startSpa } from '../fixtures/spa/spa.ts';
import { startVulnerableWebapp } from '../fixtures/web/vulnerable-webapp.ts';
import { measure } from './measure.ts';

describe('web-application scanner', () => {
  let app: RunningFixture;
  let spa: RunningFixture;
  beforeAll(async () => {
    [app, spa] = await Promise.all([startVulnerableWebapp(), startSpa()]);
  });
  afterAll(async () => {
    await Promise.all([app.close(), spa.close()]);
  });

  it('finds every planted issue of the vulnerable app, sub-paths included, with no false positives', async () => {
    const progress: ScanProgress[] = [];
    const result = await runScan('webapp', {
      target: app.target,
      mode: 'local',
      onProgress: (p) => progress.push(p),
    });
    const m = measure(result.findings, app.planted, app.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(m.recall).toBe(1);
    expect(m.precision).toBe(1);
    for (const finding of result.findings) {
      expect(findingSchema.parse(finding)).toEqual(finding);
    }
    expect(result.partial).toBe(false);
    // Every check ran whole and filed only rules it declares (a check filing another is a phase error).
    expect(result.phase_errors).toEqual([]);
    expect(result.stats.requests).toBeGreaterThan(20);
    expect(progress.at(-1)?.percent).toBe(100);
    expect(progress.map((p) => p.phase)).toEqual(
      expect.arrayContaining(['crawl', 'exposed files', 'active probes']),
    );
  });

  it('reports no exposed files on an SPA that answers 200 for every path', async () => {
    const result = await runScan('webapp', { target: spa.target, mode: 'local' });
    expect(
      result.findings.filter(
        (f) => f.rule_id.startsWith('web.exposed') || f.rule_id === 'web.directory-listing',
      ),
    ).toEqual([]);
    const m = measure(result.findings, spa.planted, spa.target);
    expect(m.unexpected).toEqual([]);
    expect(m.missed).toEqual([]);
  });

  it('stops within 2 seconds of an abort and keeps the findings so far', async () => {
    const controller = new AbortController();
    const started = Date.now();
    let abortedAt = 0;
    const result = await runScan('webapp', {
      target: app.target,
      mode: 'local',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'exposed files' && !controller.signal.aborted) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });
    expect(abortedAt).toBeGreaterThan(started);
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    expect(result.partial).toBe(true);
    expect(result.findings.some((f) => f.rule_id === 'web.header.csp-missing')).toBe(true);
    expect(result.findings.some((f) => f.rule_id === 'web.xss.reflected')).toBe(false);
  });

  it('refuses the loopback fixture in hosted mode without sending a request', async () => {
    await expect(runScan('webapp', { target: app.target, mode: 'hosted' })).rejects.toThrow(/target refused/);
  });
});
