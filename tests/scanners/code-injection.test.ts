// Runs inside a private network namespace (tests/scanners/run.sh): the code-injection check
// (webapp/injection/code-eval.ts) on Express apps that run input as code three ways (eval, Node's vm
// module, math.js 3.10.1 from npm) beside a twin on a current math.js, and on the Flask shop (Python's eval,
// in injection.test.ts). Recall must be complete and nothing else reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ScanResult } from '../../agents/scanners/core/context.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import { findingSchema } from '../../shared/findings.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startCodeEvalApp } from '../fixtures/web/code-eval-apps.ts';
import type { CodeEvalVariant } from '../fixtures/web/code-eval-apps.ts';
import { missingLibraries } from '../fixtures/web/component-libs.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const needs = requires(
  ...missingLibraries()
    .filter((spec) => spec.startsWith('mathjs@'))
    .map((spec) => ({
      requirement: `npm:${spec}`,
      detail: `not in the cache (tests/scanners/run.sh packs it: npx tsx tests/fixtures/web/component-libs.ts)`,
    })),
);

describe('code injection on Express apps (eval, vm, math.js 3.10.1) and a twin on math.js 15', needs, () => {
  const runs = new Map<CodeEvalVariant, { fixture: RunningFixture; result: ScanResult }>();
  beforeAll(async () => {
    await Promise.all(
      (['vulnerable', 'twin'] as const).map(async (variant) => {
        const fixture = await startCodeEvalApp(variant);
        runs.set(variant, {
          fixture,
          result: await runScan('webapp', { target: fixture.target, mode: 'local' }),
        });
      }),
    );
  }, 240_000);
  afterAll(async () => {
    await Promise.all([...runs.values()].map(({ fixture }) => fixture.close()));
  });

  const run = (variant: CodeEvalVariant) => {
    const found = runs.get(variant);
    if (!found) {
      throw new Error(`no scan of the ${variant} app`);
    }
    return found;
  };

  it('finds the three places that run input as code, saying what runs it, and nothing else', () => {
    const { fixture, result } = run('vulnerable');
    const m = measure(result.findings, fixture.planted, fixture.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.partial).toBe(false);
    const evidence = (location: string) =>
      result.findings.find(
        (f) => f.rule_id === 'web.code-injection' && f.location.replace(fixture.target, '') === location,
      )?.evidence ?? '';
    expect(evidence('/shipping?formula=')).toMatch(/came back as \d+-object.*Node\.js \(eval/);
    expect(evidence('/discount?rule=')).toMatch(/^rule=this\.constructor\.constructor.*vm module/);
    expect(evidence('POST /calc?eqn=')).toMatch(/^eqn=cos\.constructor.*math\.js/);
    for (const finding of result.findings) {
      expect(findingSchema.safeParse(finding).success).toBe(true);
    }
  });

  it('reports only plain HTTP on the twin, whose math.js refuses the same payloads', () => {
    const { fixture, result } = run('twin');
    const m = measure(result.findings, fixture.planted, fixture.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
  });
});
