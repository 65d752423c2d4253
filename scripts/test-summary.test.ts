import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import type { RunRecord } from '../tests/helpers/skip-reporter.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/** Runs a command, resolving with its exit code and output whatever the code. */
async function exitOf(command: string, args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout } = await run(command, args, { cwd: root, env, timeout: 60_000 });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '' };
  }
}

// A run can fail with every test passed (a failing hook, an unhandled rejection): CI printed "0 failed" and
// went red without saying why. The reporter records such errors, and the summary names them and the stage.
describe('the test summary', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the errors outside tests that failed a run whose tests all passed', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-summary-'));
    const env = { ...process.env, VIGIL_TEST_REPORT_DIR: dir, VIGIL_TEST_STAGE: 'samples', CI: '' };
    const samples = await exitOf(
      bin('vitest'),
      ['run', '--config', 'tests/fixtures/reporter/vitest.config.ts'],
      env,
    );
    expect(samples.code).toBe(1);

    const [file] = readdirSync(dir).filter((name) => name.endsWith('.json'));
    const record = JSON.parse(readFileSync(path.join(dir, file ?? ''), 'utf8')) as RunRecord;
    expect(record.failed).toEqual([]);
    expect(record.passed).toHaveLength(3);
    expect(record.skipped.map((test) => test.unmet[0]?.requirement)).toEqual(['unstated']);
    expect(record.errors).toEqual(
      expect.arrayContaining([
        { where: 'unhandled', message: 'Error: a rejection nobody handled' },
        {
          where: 'hook-fails.sample.ts > a suite whose teardown fails',
          message: 'Error: teardown could not stop its server',
        },
      ]),
    );

    writeFileSync(
      path.join(dir, 'stages.tsv'),
      'unit and integration\t0\t40\t70\t1\nscanners (beside)\t0\t30\t\t0\n',
    );
    const summary = await exitOf(bin('tsx'), ['scripts/test-summary.ts', dir, '1'], env);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(/unit and integration\s+40 s\s+70 s\s+FAILED \(exit 1\)/);
    expect(summary.stdout).toMatch(/scanners \(beside\)\s+30 s\s+passed/);
    expect(summary.stdout).toMatch(/samples\s+3\s+0\s+1\s+2/);
    expect(summary.stdout).toContain('samples: unhandled: Error: a rejection nobody handled');
    expect(summary.stdout).toContain(
      'samples: hook-fails.sample.ts > a suite whose teardown fails: Error: teardown could not stop its server',
    );
  });

  it("says so when vitest's own process fails after the tests passed", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-summary-'));
    const env = { ...process.env, VIGIL_TEST_REPORT_DIR: dir, VIGIL_TEST_STAGE: 'late', CI: '' };
    const late = await exitOf(
      bin('vitest'),
      ['run', '--config', 'tests/fixtures/reporter/late-failure.config.ts'],
      env,
    );
    expect(late.code).toBe(1);
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.json'));
    const record = JSON.parse(readFileSync(path.join(dir, file ?? ''), 'utf8')) as RunRecord;
    expect(record.failed).toEqual([]);
    expect(record.passed).toHaveLength(1);
    expect(record.errors).toEqual([
      {
        where: 'vitest',
        message: expect.stringMatching(/^its process exited with status 1 after the tests/) as unknown,
      },
    ]);
  });
});
