import { defineConfig } from 'vitest/config';

import SkipReporter from './tests/helpers/skip-reporter.ts';

export default defineConfig({
  test: {
    // Every run ends with what ran and a table of skips by reason; with CI=true a skip must be justified.
    reporters: ['default', new SkipReporter()],
    // nmap's version detection is on by default in scans, and installed here for its own suite
    // (tests/scanners/nmap-versions.test.ts turns it on): elsewhere scans stay fast and deterministic.
    env: { VIGIL_SCAN_NMAP: 'off' },
    include: ['**/*.test.ts', '**/*.test.tsx'],
    // tests/scanners port-scan loopback: they run only in a private network namespace (tests/scanners/run.sh).
    // Packages installed anywhere (the scanner fixtures install apps from npm into caches) bring test files
    // of their own: never collected.
    exclude: ['**/node_modules/**', 'dist/**', 'tests/e2e/**', 'tests/scanners/**', 'tests/hosted-policy/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
