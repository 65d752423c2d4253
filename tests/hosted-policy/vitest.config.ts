// The hosted-policy suite only, run by tests/hosted-policy/run.sh inside private network and mount
// namespaces (it adds addresses to loopback and replaces /etc/hosts there).
import { defineConfig } from 'vitest/config';

import SkipReporter from '../helpers/skip-reporter.ts';

export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    // Every run ends with what ran and a table of skips by reason; with CI=true a skip must be justified.
    reporters: ['default', new SkipReporter()],
    include: ['tests/hosted-policy/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
