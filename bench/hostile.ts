// `npm run bench -- hostile`: each hostile target (tests/fixtures/hostile) scanned as the worker and the CLI
// scan it, in a process of its own, beside a benign target of the same type: the wall time against the
// case's budget, the peak memory of the scan's process tree against its cap, and how the scan ended. The
// scans run in a private network namespace (bench/hostile-netns.ts), like the scanner suites.
import path from 'node:path';

import { rowsFromNamespace } from './lib/netns.ts';
import type { BenchRow } from './lib/report.ts';

export function benchHostile(): BenchRow[] {
  return rowsFromNamespace(
    path.resolve(import.meta.dirname, 'hostile-netns.ts'),
    'the hostile-target benchmarks',
    {
      VIGIL_SCAN_NMAP: 'off',
    },
  );
}
