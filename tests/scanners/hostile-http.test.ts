// Runs inside a private network namespace (tests/scanners/run.sh). Each hostile web or API target is
// scanned as the worker and the CLI scan it, in a process of its own, with nothing that would stop the scan
// from outside: it must end by itself, within the case's budget (the per-request deadlines are what end a
// drip), with its process tree under its memory cap, with nothing left unhandled in it, with no finding the
// hostility made up and with the target's real problems found.
import { afterEach, describe, expect, it } from 'vitest';

import { runIsolatedScan } from '../../agents/scanners/isolation/scan-process.ts';
import type { IsolatedScanResult } from '../../agents/scanners/isolation/scan-process.ts';
import type { ScanResult } from '../../agents/scanners/run-scan.ts';
import type { HostileCase, HostileTarget } from '../fixtures/hostile/case.ts';
import { hostileHttpCases } from '../fixtures/hostile/http-servers.ts';

/** Room for vitest to report an overrun as a failed assertion rather than as its own timeout. */
const reportMarginMs = 60_000;

const running: HostileTarget[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((target) => target.close()));
});

async function scan(
  hostile: HostileCase,
  target: HostileTarget,
): Promise<{ result: IsolatedScanResult; ms: number; logged: string[] }> {
  const started = performance.now();
  const logged: string[] = [];
  const result = await runIsolatedScan(hostile.type, {
    target: target.target,
    mode: 'local',
    onLog: (line) => logged.push(line),
  });
  return { result, ms: performance.now() - started, logged };
}

/** The scan's processes stayed within their cap, and nothing in them went unhandled. */
function expectContained(result: IsolatedScanResult, logged: string[]): void {
  expect(result.resources.peak_memory_mb).not.toBeNull();
  expect(result.resources.peak_memory_mb!).toBeLessThanOrEqual(result.resources.memory_cap_mb);
  expect(logged.filter((line) => /unhandled rejection|uncaught exception/.test(line))).toEqual([]);
}

function expectHonest(hostile: HostileCase, result: ScanResult): void {
  const found = new Set(result.findings.map((f) => f.rule_id));
  expect(hostile.forbidden.filter((rule) => found.has(rule))).toEqual([]);
  expect((hostile.expected ?? []).filter((rule) => !found.has(rule))).toEqual([]);
}

describe('scans of hostile web and API targets', () => {
  for (const hostile of hostileHttpCases) {
    it(
      `${hostile.name}: ${hostile.behaviour}`,
      async () => {
        const target = await hostile.start();
        running.push(target);
        const started = performance.now();
        const { result, logged } = await scan(hostile, target);
        expect(performance.now() - started).toBeLessThanOrEqual(hostile.budgetMs);
        // Ended by itself (the per-request deadlines), not stopped by a budget, a limit or a crash.
        expect(result.stopped).toBeUndefined();
        expectContained(result, logged);
        expectHonest(hostile, result);
      },
      hostile.budgetMs + reportMarginMs,
    );
  }

  it('says why a start page with headers past 256 KB was not read, and runs every other check', async () => {
    const hostile = hostileHttpCases.find((c) => c.name === 'header-300kb-root')!;
    const target = await hostile.start();
    running.push(target);
    const { result } = await scan(hostile, target);
    expect(result.phase_errors).toEqual([
      { phase: 'transport', error: expect.stringContaining('response headers larger than 256 KB') as string },
    ]);
    expect(result.findings.map((f) => f.rule_id)).toContain('web.exposed.env');
  });

  const randomRedirect = hostileHttpCases.find((c) => c.name === 'random-redirect-root')!;
  it(
    'files the findings of a page that moves to a random URL at the same place on every scan',
    async () => {
      const hostile = randomRedirect;
      const target = await hostile.start();
      running.push(target);
      const places = async () =>
        (await scan(hostile, target)).result.findings.map((f) => `${f.rule_id} ${f.location}`).sort();
      const first = await places();
      const second = await places();
      expect(second).toEqual(first);
      // The header findings sit at the URL the scan asked for, not at the random one it landed on.
      expect(first).toContain(`web.header.csp-missing ${target.target}/`);
      expect(first.filter((place) => place.includes('/r/'))).toEqual([]);
    },
    2 * (randomRedirect.budgetMs + reportMarginMs),
  );
});
