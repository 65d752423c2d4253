// A scan is a list of checks, each declared once with what it is: its id, the phase it runs in, its
// category, and every rule it can file. The scanners run their lists through `runChecks`, so the time
// limits, the failure isolation of phases and the request budget hold for every check alike; the rule
// catalogue's test holds every rule to being declared by some check, and docs/rules.md is generated from
// these declarations. (ZAP's scan-rule registry and nmap's NSE categories are the models.)
import type { Finding } from '../../../shared/findings.ts';
import { checkCategories } from '../../../shared/scan-categories.ts';
import type { CategoryReport, CheckCategory } from '../../../shared/scan-categories.ts';
import type { RuleId } from '../catalogue.ts';
import type { FindingSet } from './context.ts';
import type { PhaseRunner } from './phases.ts';

/**
 * - passive: asks only for what a visitor's browser would (pages, scripts, robots.txt), and reads it;
 * - active: sends crafted requests (probes for files, Origin headers, injection payloads, handshakes
 *   with chosen suites) that change nothing on the target;
 * - intrusive: may change the target's state to prove a problem (a file written over WebDAV or anonymous
 *   FTP, a form sent), and cleans up what it wrote. Runs only when the target's owner allows it
 *   (`scan_targets.allow_intrusive`, carried to the scan as `ScanOptions.allowIntrusive`).
 */
export type { CheckCategory, CategoryReport };

export interface CheckContext {
  /** Progress within the check's phase. */
  tick: (done: number, total: number) => void;
  /** Aborts at the end of the phase's time or when the scan stops: every wait of the check heeds it. */
  signal: AbortSignal;
  /** Files findings; each must be of a rule the check declares. */
  report: (findings: readonly Finding[]) => void;
  /** Records a part of the check that could not run, and why (the scan is then partial). */
  incomplete: (why: string) => void;
}

export interface Check<Scan> {
  /** Stable and unique within its scanner, e.g. "web.exposed-files". */
  id: string;
  /** The phase it runs in, as progress and `phase_errors` name it. */
  phase: string;
  /** Its weight in the scan's progress (percent of the whole). */
  share: number;
  category: CheckCategory;
  /** Every rule the check can file (none for checks that only gather what later checks use). */
  rules: readonly RuleId[];
  /** One line for people: what it looks at and how. */
  summary: string;
  run(scan: Scan, context: CheckContext): Promise<void>;
}

/** A check as the catalogue and the docs see it. */
export type CheckDeclaration = Omit<Check<never>, 'run'>;

/** What the scan may do to the target beyond reading it. */
export interface CheckConsent {
  /** The target's owner allows checks that change the target (and clean up). Absent: not allowed. */
  allowIntrusive?: boolean;
}

/**
 * Runs `checks` in order, each as a phase of its own under `phases`, filing into `findings`. Intrusive
 * checks run only with the owner's consent; the report says which categories ran and which were left
 * out for lack of it (a scan without them is not partial: it did all it was allowed to).
 */
export async function runChecks<Scan>(
  checks: readonly Check<Scan>[],
  scan: Scan,
  phases: PhaseRunner,
  findings: FindingSet,
  consent: CheckConsent = {},
): Promise<CategoryReport> {
  const ran = new Set<CheckCategory>();
  const skipped = new Map<CheckCategory, { checks: string[]; rules: string[] }>();
  for (const check of checks) {
    // Guard: a check that changes the target runs only when its owner has said it may.
    if (check.category === 'intrusive' && consent.allowIntrusive !== true) {
      const left = skipped.get(check.category) ?? { checks: [], rules: [] };
      skipped.set(check.category, {
        checks: [...left.checks, check.id],
        rules: [...new Set([...left.rules, ...check.rules])],
      });
      continue;
    }
    // A stopped scan's remaining checks do not run (the phase runner passes over them).
    if (!phases.stopped) {
      ran.add(check.category);
    }
    const declared = new Set<string>(check.rules);
    await phases.run(check.phase, check.share, (tick, signal) =>
      check.run(scan, {
        tick,
        signal,
        report: (list) => {
          for (const finding of list) {
            // Guard: a check filing a rule it does not declare is a bug; the finding is kept and the
            // scan says so, so the suites notice.
            if (!declared.has(finding.rule_id)) {
              phases.fail(
                check.phase,
                `check ${check.id} filed ${finding.rule_id}, which it does not declare`,
              );
            }
            findings.add(finding);
          }
        },
        incomplete: (why) => phases.fail(check.phase, why),
      }),
    );
  }
  return {
    ran: checkCategories.filter((c) => ran.has(c)),
    skipped: [...skipped].map(([category, left]) => ({ category, reason: 'no-consent' as const, ...left })),
  };
}
