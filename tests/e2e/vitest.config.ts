// End-to-end suite: Debian's Chromium (/usr/bin/chromium) driven by playwright-core against the web build
// (dist/web, run `npm run build:web` first) served by the embedded stack started in memory.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
