// Runs inside a private network namespace (tests/scanners/run.sh): the insecure-deserialization check
// (webapp/deserialization.ts) on an Express app on node-serialize 0.0.4 from npm and a Flask app on pickle
// and PyYAML's full Loader, each beside a twin on JSON.parse, json.loads and yaml.safe_load. With the
// owner's consent recall must be complete and nothing else reported; without it, the places only an
// intrusive probe can prove (uploads, node's busy wait) are left alone and the result says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ScanResult } from '../../agents/scanners/core/context.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import { findingSchema } from '../../shared/findings.ts';
import { debian } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { missingLibraries } from '../fixtures/web/component-libs.ts';
import { startDeserializeApp } from '../fixtures/web/deserialize-apps.ts';
import type { DeserializeApp } from '../fixtures/web/deserialize-apps.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const needs = requires(
  debian('python3-flask'),
  debian('python3-yaml'),
  ...missingLibraries()
    .filter((spec) => spec.startsWith('node-serialize@'))
    .map((spec) => ({
      requirement: `npm:${spec}`,
      detail: `not in the cache (tests/scanners/run.sh packs it: npx tsx tests/fixtures/web/component-libs.ts)`,
    })),
);

const apps: DeserializeApp[] = ['node', 'nodeTwin', 'flask', 'flaskTwin'];
/** The places only a wait proves (the others are proven by output, which needs no timing). */
const timed = new Set(['POST /import', '/ (cookie cart)', 'POST /settings']);
const untimedPrefix = 'deserialization not judged';

describe(
  'insecure deserialization on Express (node-serialize) and Flask (pickle, PyYAML), beside twins',
  needs,
  () => {
    const runs = new Map<DeserializeApp, { fixture: RunningFixture; result: ScanResult }>();
    let withoutConsent: ScanResult | null = null;
    beforeAll(async () => {
      await Promise.all(
        apps.map(async (app) => {
          const fixture = await startDeserializeApp(app);
          runs.set(app, {
            fixture,
            result: await runScan('webapp', { target: fixture.target, mode: 'local', allowIntrusive: true }),
          });
        }),
      );
      withoutConsent = await runScan('webapp', { target: runs.get('node')!.fixture.target, mode: 'local' });
    }, 300_000);
    afterAll(async () => {
      await Promise.all([...runs.values()].map(({ fixture }) => fixture.close()));
    });

    const run = (app: DeserializeApp) => {
      const found = runs.get(app);
      if (!found) {
        throw new Error(`no scan of the ${app} app`);
      }
      return found;
    };
    const evidenceAt = (app: DeserializeApp, location: string) => {
      const { fixture, result } = run(app);
      return (
        result.findings.find(
          (f) => f.rule_id === 'web.deserialization' && f.location.replace(fixture.target, '') === location,
        )?.evidence ?? ''
      );
    };

    /** The scan said its time-based check could not judge the place at `location` (partial for that alone). */
    const notJudged = (app: DeserializeApp, location: string) => {
      const { fixture, result } = run(app);
      return result.phase_errors.some(
        (e) => e.error.startsWith(untimedPrefix) && e.error.includes(`${fixture.target}${location} (`),
      );
    };

    it.each(['node', 'flask'] as const)(
      'finds every place the %s app unserializes, and nothing else',
      (app) => {
        const { fixture, result } = run(app);
        const m = measure(result.findings, fixture.planted, fixture.target);
        // The one exception: a place proven only by a wait that the scan itself reported as not judged
        // (a host too busy to time two sequences in a row); the scan is then partial for that alone.
        const admitted = m.missed.filter(
          (issue) => timed.has(issue.location) && notJudged(app, issue.location),
        );
        expect(
          m.missed.filter((issue) => !admitted.includes(issue)),
          JSON.stringify(result.phase_errors),
        ).toEqual([]);
        expect(m.unexpected).toEqual([]);
        expect(result.phase_errors.filter((e) => !e.error.startsWith(untimedPrefix))).toEqual([]);
        expect(result.partial).toBe(result.phase_errors.length > 0);
        for (const finding of result.findings) {
          expect(findingSchema.safeParse(finding).success).toBe(true);
        }
      },
    );

    it('says how each was proven: an echo of computed results, or waits in proportion', () => {
      expect(evidenceAt('node', '/ (cookie profile)')).toMatch(
        /^cookie profile sent as base64 of JSON .* returned came back computed, \d+-object/,
      );
      expect(evidenceAt('node', '/preferences?prefs=')).toMatch(/^prefs sent as JSON/);
      const waited: [DeserializeApp, string, RegExp][] = [
        ['node', 'POST /import', /^node-serialize function \(a busy wait/],
        ['flask', '/ (cookie cart)', /^Python pickle \(time\.sleep/],
        ['flask', 'POST /settings', /^PyYAML unsafe load/],
      ];
      for (const [app, location, proof] of waited) {
        if (!notJudged(app, location)) {
          expect(evidenceAt(app, location)).toMatch(proof);
        }
      }
    });

    it.each(['nodeTwin', 'flaskTwin'] as const)(
      'reports nothing of it on the %s, whose parsers run no code',
      (app) => {
        const { fixture, result } = run(app);
        const m = measure(result.findings, fixture.planted, fixture.target);
        expect(m.missed).toEqual([]);
        expect(m.unexpected).toEqual([]);
      },
    );

    it('without consent, proves the echoes and leaves the upload alone, saying intrusive checks did not run', () => {
      const { fixture } = run('node');
      const found = withoutConsent!.findings
        .filter((f) => f.rule_id === 'web.deserialization')
        .map((f) => f.location.replace(fixture.target, ''))
        .sort();
      expect(found).toEqual(['/ (cookie profile)', '/preferences?prefs=']);
      const skipped = withoutConsent!.categories?.skipped.find((s) => s.category === 'intrusive');
      expect(skipped?.checks).toContain('web.deserialization-intrusive');
    });
  },
);
