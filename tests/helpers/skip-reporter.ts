// A vitest reporter (beside the default one in every vitest config) that makes skips visible and judged:
// it ends each run with how many tests ran and a table of the skipped ones by requirement (requirements.ts),
// and with CI=true it fails the run when a test was skipped without a stated reason, for a requirement the CI
// machines can have, or when nothing ran at all. With VIGIL_TEST_REPORT_DIR set (scripts/test.sh sets it), it
// also writes what ran and what was skipped there, for the summary of the whole `npm test`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';

import type { Unmet } from './requirements.ts';
import { unavailableOnCi } from './requirements.ts';

/** One test as the summary of the whole run reads it. */
export interface TestRecord {
  file: string;
  name: string;
}
export interface SkippedRecord extends TestRecord {
  unmet: Unmet[];
}
/** An error outside any test: a failing hook or import of a file, or an unhandled rejection or exception. */
export interface ErrorRecord {
  /** The file (and suite) it came from, or "unhandled". */
  where: string;
  message: string;
}
/** What one vitest run wrote to VIGIL_TEST_REPORT_DIR. */
export interface RunRecord {
  stage: string;
  passed: TestRecord[];
  failed: TestRecord[];
  skipped: SkippedRecord[];
  /** Each of these fails the run even when every test passed: the summary names them. */
  errors: ErrorRecord[];
}

/** An error's first line, bounded: enough to find it in the output above. */
const firstLine = (error: SerializedError): string => {
  const text = `${error.name ?? 'Error'}: ${error.message ?? ''}`.split('\n')[0] ?? '';
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

/** Skips that state no reason: a bare `.skip`, a `todo`, tests left out by `.only`, or a suite that failed. */
const unstated = (test: TestCase): Unmet => ({
  requirement: 'unstated',
  detail:
    test.module.state() === 'failed'
      ? 'not run: its file or suite failed (see the errors above)'
      : `skipped without a reason (mode ${test.options.mode}); use requires() from tests/helpers/requirements.ts`,
});

export interface SkipRow {
  requirement: string;
  tests: number;
  detail: string;
  files: string[];
}

/** Skipped tests grouped by requirement, most tests first. */
export function skipTable(skipped: readonly SkippedRecord[]): SkipRow[] {
  const rows = new Map<string, SkipRow>();
  for (const test of skipped) {
    for (const { requirement, detail } of test.unmet) {
      const row = rows.get(requirement) ?? { requirement, tests: 0, detail, files: [] };
      row.tests += 1;
      if (!row.files.includes(test.file)) {
        row.files.push(test.file);
      }
      rows.set(requirement, row);
    }
  }
  return [...rows.values()].sort((a, b) => b.tests - a.tests || a.requirement.localeCompare(b.requirement));
}

/** Whether CI=true accepts a skip for this requirement (another stage's tests are checked by the summary). */
export const allowedOnCi = (requirement: string): boolean =>
  requirement in unavailableOnCi || requirement.startsWith('stage:');

/** The table as text lines, with a mark on the rows CI=true refuses. */
export function formatSkipTable(rows: readonly SkipRow[]): string[] {
  const width = Math.max(11, ...rows.map((row) => row.requirement.length));
  return [
    `  ${'requirement'.padEnd(width)}  tests  why (files)`,
    ...rows.map(
      (row) =>
        `${allowedOnCi(row.requirement) ? ' ' : '!'} ${row.requirement.padEnd(width)}  ${String(row.tests).padStart(5)}  ${row.detail} (${row.files.join(', ')})`,
    ),
  ];
}

/** Errors outside tests as text lines. */
export const formatErrors = (errors: readonly ErrorRecord[]): string[] =>
  errors.map(({ where, message }) => `  ${where}: ${message}`);

const isCi = () => /^(1|true)$/i.test(process.env.CI ?? '');

export default class SkipReporter implements Reporter {
  private root = process.cwd();
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    // A run narrowed by -t skips every other test on purpose: those skips are not judged.
    this.filtered = vitest.config.testNamePattern !== undefined;
    // vitest's own process may still fail after the tests ended (an unhandled rejection there ends it at
    // once, a worker that will not stop): the record then says so, or the summary would read all green.
    process.once('exit', (code) => this.exited(code));
  }

  /** This reporter failed the run itself (CI=true: a refused skip, nothing ran): it said why. */
  private refused = false;
  /** The record this run wrote, and where: amended if the process exits with a failure nothing named. */
  private written: { record: RunRecord; file: string } | null = null;

  private exited(code: number): void {
    const written = this.written;
    const named = written && (written.record.failed.length > 0 || written.record.errors.length > 0);
    if (code === 0 || !written || named || this.refused) {
      return;
    }
    written.record.errors.push({
      where: 'vitest',
      message: `its process exited with status ${code} after the tests, for an error outside them (an unhandled rejection in vitest's own process, a worker that did not stop): see its output`,
    });
    writeFileSync(written.file, JSON.stringify(written.record));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const record: RunRecord = {
      stage: process.env.VIGIL_TEST_STAGE ?? 'vitest',
      passed: [],
      failed: [],
      skipped: [],
      errors: unhandledErrors.map((error) => ({ where: 'unhandled', message: firstLine(error) })),
    };
    for (const module of modules) {
      const file = path.relative(this.root, module.moduleId);
      for (const suite of [module, ...module.children.allSuites()]) {
        const where = suite.type === 'module' ? file : `${file} > ${suite.fullName}`;
        record.errors.push(...suite.errors().map((error) => ({ where, message: firstLine(error) })));
      }
      for (const test of module.children.allTests()) {
        const name = test.fullName;
        const result = test.result();
        if (result.state === 'passed') {
          record.passed.push({ file, name });
        } else if (result.state === 'failed') {
          record.failed.push({ file, name });
        } else if (!(this.filtered && test.options.mode === 'skip' && !test.meta().unmet)) {
          record.skipped.push({ file, name, unmet: test.meta().unmet ?? [unstated(test)] });
        }
      }
    }
    this.print(record);
    this.write(record);
  }

  private print(record: RunRecord): void {
    const ran = record.passed.length + record.failed.length;
    const lines = [
      '',
      `${record.stage}: ${ran} tests ran (${record.passed.length} passed, ${record.failed.length} failed), ${record.skipped.length} skipped`,
    ];
    if (record.errors.length > 0) {
      lines.push(
        `${record.errors.length} errors outside tests (each fails the run):`,
        ...formatErrors(record.errors),
      );
    }
    const rows = skipTable(record.skipped);
    if (rows.length > 0) {
      lines.push('skipped tests by requirement (! : not accepted with CI=true):', ...formatSkipTable(rows));
    }
    if (isCi()) {
      const refused = rows.filter((row) => !allowedOnCi(row.requirement));
      if (refused.length > 0) {
        lines.push(
          `CI=true: ${refused.reduce((sum, row) => sum + row.tests, 0)} skipped tests need what this machine should have (${refused.map((row) => row.requirement).join(', ')}); ` +
            `only ${Object.keys(unavailableOnCi).join(', ')} may be missing here (tests/helpers/requirements.ts)`,
        );
        this.refused = true;
        process.exitCode = 1;
      }
      if (ran === 0) {
        lines.push('CI=true: no test ran');
        this.refused = true;
        process.exitCode = 1;
      }
    }
    console.log(lines.join('\n'));
  }

  private write(record: RunRecord): void {
    const dir = process.env.VIGIL_TEST_REPORT_DIR;
    if (!dir) {
      return;
    }
    mkdirSync(dir, { recursive: true });
    const name = `${record.stage.replace(/[^\w-]/g, '_')}.${process.pid}.${Date.now()}.json`;
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(record));
    this.written = { record, file };
  }
}
