// The end of `npm test` (scripts/test.sh runs it whatever happened): how long each stage took, how many tests
// each vitest stage ran, and every skipped test of the whole run by requirement. A test skipped because
// another stage runs it (`stage:` requirements) must have run there: after a complete run, one that ran
// nowhere fails it. With CI=true, the stages' own reporters have already failed any other unjustified skip.
// Usage: tsx scripts/test-summary.ts REPORT_DIR RUN_STATUS
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { formatErrors, formatSkipTable, skipTable, type RunRecord } from '../tests/helpers/skip-reporter.ts';

const [dir, statusArg] = process.argv.slice(2);
if (!dir) {
  throw new Error('usage: tsx scripts/test-summary.ts REPORT_DIR RUN_STATUS');
}
const complete = statusArg === '0';

const runs: RunRecord[] = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as RunRecord);

const lines: string[] = ['', '\u001b[1m== summary ==\u001b[0m'];

// Stage timings, as scripts/test.sh recorded them: "name<TAB>start<TAB>end<TAB>[cpu]<TAB>status" in seconds
// since the run began; the CPU seconds of a stage include what ran beside it, and a stage's status is
// non-zero when it (or a stage beside it) failed.
const timings = path.join(dir, 'stages.tsv');
if (existsSync(timings)) {
  // A stage's row is written when it ends, after the rows of the stages that ran beside it: listed by start.
  const rows = readFileSync(timings, 'utf8')
    .trim()
    .split('\n')
    .map((row) => row.split('\t'))
    .map(([name = '', start = '0', end, cpu = '', status = '0']) => ({
      name,
      start: Number(start),
      end,
      cpu,
      status,
    }))
    .sort(
      (a, b) =>
        a.start - b.start || Number(a.name.endsWith('(beside)')) - Number(b.name.endsWith('(beside)')),
    );
  const width = Math.max(5, ...rows.map((row) => row.name.length));
  lines.push(`  ${'stage'.padEnd(width)} ${'wall'.padStart(6)} ${'CPU'.padStart(6)}  result`);
  for (const { name, start, end, cpu, status } of rows) {
    const took = end === undefined ? 'did not finish' : `${Number(end) - start} s`;
    const result = status === '0' ? 'passed' : `FAILED (exit ${status})`;
    lines.push(
      `  ${name.padEnd(width)} ${took.padStart(6)} ${(cpu === '' ? '' : `${cpu} s`).padStart(6)}  ${result}`,
    );
  }
}

const byStage = new Map<string, { ran: number; failed: number; skipped: number; errors: number }>();
for (const run of runs) {
  const totals = byStage.get(run.stage) ?? { ran: 0, failed: 0, skipped: 0, errors: 0 };
  totals.ran += run.passed.length + run.failed.length;
  totals.failed += run.failed.length;
  totals.skipped += run.skipped.length;
  totals.errors += run.errors.length;
  byStage.set(run.stage, totals);
}
lines.push('vitest stage        tests ran  failed  skipped  errors outside tests');
for (const [stage, t] of byStage) {
  lines.push(
    `  ${stage.padEnd(18)} ${String(t.ran).padStart(9)} ${String(t.failed).padStart(7)} ${String(t.skipped).padStart(8)} ${String(t.errors).padStart(7)}`,
  );
}
// A run can fail with every test passed: a hook, an import or an unhandled rejection. Name them here too.
const errors = runs.flatMap((run) =>
  run.errors.map((error) => ({ ...error, where: `${run.stage}: ${error.where}` })),
);
if (errors.length > 0) {
  lines.push('errors outside tests (each failed its stage):', ...formatErrors(errors));
}

const skipped = runs.flatMap((run) => run.skipped);
const rows = skipTable(skipped);
if (rows.length > 0) {
  lines.push(
    'skipped tests by requirement, whole run (! : not accepted with CI=true):',
    ...formatSkipTable(rows),
  );
} else if (runs.length === 0) {
  lines.push('no vitest stage ran');
} else {
  lines.push('no test was skipped');
}

// Every `stage:X` skip must have run in stage X.
const ranIn = new Set(
  runs.flatMap((run) =>
    [...run.passed, ...run.failed].map((test) => `${run.stage}\u0000${test.file}\u0000${test.name}`),
  ),
);
const nowhere = skipped.flatMap((test) =>
  test.unmet
    .filter((unmet) => unmet.requirement.startsWith('stage:'))
    .filter(
      (unmet) =>
        !ranIn.has(`${unmet.requirement.slice('stage:'.length)}\u0000${test.file}\u0000${test.name}`),
    )
    .map((unmet) => `  ${test.file} > ${test.name} (${unmet.requirement})`),
);
let failed = false;
if (nowhere.length > 0) {
  if (complete) {
    lines.push(`${nowhere.length} tests skipped for another stage did not run there:`, ...nowhere);
    failed = true;
  } else {
    lines.push(
      `(the run stopped early: ${nowhere.length} tests skipped for another stage were not run there)`,
    );
  }
}
console.log(lines.join('\n'));
process.exit(failed ? 1 : 0);
