// Runs inside a private network namespace (tests/scanners/run.sh). Each hostile web or API target is
// scanned in process, with nothing that would stop the scan from outside: it must end by itself, within
// the case's budget (the per-request deadlines are what end a drip), with no finding the hostility made
// up and with the target's real problems found.
import { afterEach, describe, expect, it } from 'vitest';

import { HttpProtocolError } from '../../agents/scanners/core/http-client.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import type { ScanResult } from '../../agents/scanners/run-scan.ts';
import type { HostileCase, HostileTarget } from '../fixtures/hostile/case.ts';
import { hostileHttpCases } from '../fixtures/hostile/http-servers.ts';

/**
 * Cases whose `/` no browser reads either: the client fails that request with a typed error. Until a
 * failed phase stops failing the whole scan (phase isolation, being built beside this), such a scan
 * fails fast with that error; from then on it must end with the other checks' findings. Delete the
 * first branch below when phase isolation lands.
 */
const unreadableRoot = new Set(['header-300kb-root']);

/** Room for vitest to report an overrun as a failed assertion rather than as its own timeout. */
const reportMarginMs = 60_000;

const running: HostileTarget[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((target) => target.close()));
});

async function scan(
  hostile: HostileCase,
  target: HostileTarget,
): Promise<{ result: ScanResult; ms: number }> {
  const started = performance.now();
  const result = await runScan(hostile.type, { target: target.target, mode: 'local' });
  return { result, ms: performance.now() - started };
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
        const outcome = await scan(hostile, target).catch((error: unknown) => error);
        expect(performance.now() - started).toBeLessThanOrEqual(hostile.budgetMs);
        if (outcome instanceof Error && unreadableRoot.has(hostile.name)) {
          expect(outcome).toBeInstanceOf(HttpProtocolError);
          return;
        }
        expect(outcome).not.toBeInstanceOf(Error);
        expectHonest(hostile, (outcome as { result: ScanResult }).result);
      },
      hostile.budgetMs + reportMarginMs,
    );
  }

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
