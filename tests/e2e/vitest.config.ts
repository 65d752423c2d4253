// End-to-end suite: Debian's Chromium (/usr/bin/chromium) driven by playwright-core against the web build
// (dist/web, run `npm run build:web` first) served by the embedded stack started in memory.
import { defineConfig } from 'vitest/config';

import SkipReporter from '../helpers/skip-reporter.ts';

export default defineConfig({
  test: {
    // Every run ends with what ran and a table of skips by reason; with CI=true a skip must be justified.
    reporters: ['default', new SkipReporter()],
    include: ['tests/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
