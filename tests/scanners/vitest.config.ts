// Scanner suites only, run by tests/scanners/run.sh inside a private network namespace. The main
// vitest config excludes them, so the plain vitest stage never port-scans the host's loopback.
import { defineConfig } from 'vitest/config';

import SkipReporter from '../helpers/skip-reporter.ts';

export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    // Every run ends with what ran and a table of skips by reason; with CI=true a skip must be justified.
    reporters: ['default', new SkipReporter()],
    // nmap's version detection is on by default in scans, and installed here for its own suite
    // (tests/scanners/nmap-versions.test.ts turns it on): elsewhere scans stay fast and deterministic.
    env: { VIGIL_SCAN_NMAP: 'off' },
    include: ['tests/scanners/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file at a time: the infrastructure suite binds the services' real port numbers.
    fileParallelism: false,
  },
});
