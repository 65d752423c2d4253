import { describe, expect, it } from 'vitest';

import { categoriesNote } from '../../../shared/scan-categories.ts';
import { webappFinding } from '../webapp/rules.ts';
import { runChecks, type Check } from './checks.ts';
import { FindingSet } from './context.ts';
import { PhaseRunner } from './phases.ts';
import { ProgressTracker } from './progress.ts';

interface Scan {
  ran: string[];
}

const check = (id: string, category: Check<Scan>['category']): Check<Scan> => ({
  id,
  phase: id,
  share: 1,
  category,
  rules: ['web.webdav.write'],
  summary: id,
  run(scan, { report }) {
    scan.ran.push(id);
    report([webappFinding('web.webdav.write', { location: `http://x/${id}/`, evidence: id })]);
    return Promise.resolve();
  },
});

const checks = [check('look', 'passive'), check('probe', 'active'), check('write', 'intrusive')];

async function run(consent: { allowIntrusive?: boolean } | undefined) {
  const scan: Scan = { ran: [] };
  const findings = new FindingSet();
  const phases = new PhaseRunner(new ProgressTracker(undefined, () => 0));
  const report = await runChecks(checks, scan, phases, findings, consent);
  return { scan, findings: findings.list(), report, outcome: phases.outcome() };
}

describe('runChecks and the owner’s consent', () => {
  it('leaves intrusive checks out unless consent is given, and says so', async () => {
    for (const consent of [undefined, {}, { allowIntrusive: false }]) {
      const { scan, findings, report, outcome } = await run(consent);
      expect(scan.ran).toEqual(['look', 'probe']);
      expect(findings.map((f) => f.evidence)).toEqual(['look', 'probe']);
      expect(report).toEqual({
        ran: ['passive', 'active'],
        skipped: [
          { category: 'intrusive', reason: 'no-consent', checks: ['write'], rules: ['web.webdav.write'] },
        ],
      });
      // Not partial: the scan did everything it was allowed to.
      expect(outcome.partial).toBe(false);
    }
  });

  it('runs them with consent', async () => {
    const { scan, report } = await run({ allowIntrusive: true });
    expect(scan.ran).toEqual(['look', 'probe', 'write']);
    expect(report).toEqual({ ran: ['passive', 'active', 'intrusive'], skipped: [] });
  });

  it('does not take a truthy non-boolean for consent', async () => {
    const { scan } = await run({ allowIntrusive: 'yes' as unknown as boolean });
    expect(scan.ran).not.toContain('write');
  });

  it('words the categories for the scans table, and ignores results that do not say', () => {
    expect(
      categoriesNote({
        categories: {
          ran: ['passive', 'active'],
          skipped: [
            { category: 'intrusive', reason: 'no-consent', checks: ['web.write-methods'], rules: [] },
          ],
        },
      }),
    ).toEqual({
      text: 'Checks: passive, active · intrusive not run (not allowed for this target)',
      skipped: ['web.write-methods'],
    });
    expect(categoriesNote({ categories: { ran: ['passive', 'active', 'intrusive'], skipped: [] } })).toEqual({
      text: 'Checks: passive, active, intrusive',
      skipped: [],
    });
    expect(categoriesNote(null)).toBeNull();
    expect(categoriesNote({ total: 3 })).toBeNull();
    expect(categoriesNote({ categories: { ran: ['everything'], skipped: [] } })).toBeNull();
  });
});
