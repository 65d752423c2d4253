import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const configs = [
  'vitest.config.ts',
  'tests/scanners/vitest.config.ts',
  'tests/hosted-policy/vitest.config.ts',
  'tests/e2e/vitest.config.ts',
];

// The scanner fixtures install apps from npm into caches beside the tests, and packages ship test files of
// their own: a CI run went red when the vitest stage collected pino's (every test of ours had passed).
describe('the vitest configs', () => {
  // A package installed beside the tests of each config (the e2e and hosted-policy globs are as wide).
  const caches = ['tests/fixtures/reporter/node_modules', 'tests/scanners/node_modules'];
  beforeAll(() => {
    for (const cache of caches) {
      const planted = path.join(root, cache, 'planted-package');
      mkdirSync(planted, { recursive: true });
      for (const name of ['a.test.ts', 'b.e2e.test.ts']) {
        writeFileSync(path.join(planted, name), "throw new Error('a package test was collected');\n");
      }
    }
  });
  afterAll(() => {
    for (const cache of caches) {
      rmSync(path.join(root, cache), { recursive: true, force: true });
    }
  });

  it.each(configs)('%s never collects a test file inside node_modules', async (config) => {
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/vitest'),
      ['list', '--filesOnly', '--config', config],
      {
        cwd: root,
        timeout: 60_000,
      },
    );
    const files = stdout.split('\n').filter((line) => line.trim() !== '');
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => file.includes('node_modules'))).toEqual([]);
  });
});
