// Timeouts sized from the work and from how fast this machine is right now. Other engineers' test runs
// share these cores: a test that hashes thirty passwords in 3 s on a quiet machine takes 30 s at a load
// of 12, and a fixed timeout would fail it for nothing. The machine's speed is measured once per test
// file, when it loads, with the work that dominates the slow tests: one bcrypt hash at the product's cost.
import { createRequire } from 'node:module';

/** One bcrypt hash at cost 10 (server/auth/users.ts) on the quiet 2-core machine `npm test` must fit. */
const QUIET_HASH_MS = 60;
/** The load may change after the measure: a budget allows three times the measured speed. */
const MARGIN = 3;
/** Below vitest's own default (30 s in vitest.config.ts) a budget is never set. */
const FLOOR_MS = 30_000;

function measureSlowdown(): number {
  const bcrypt = createRequire(import.meta.url)('bcryptjs') as {
    hashSync(text: string, cost: number): string;
  };
  bcrypt.hashSync('warm-up', 10);
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    bcrypt.hashSync('measure', 10);
    return performance.now() - started;
  });
  const median = times.sort((a, b) => a - b)[1]!;
  return Math.max(1, median / QUIET_HASH_MS);
}

/** How many times slower than quiet the machine is now (at least 1), measured once per test file. */
export const slowdown = measureSlowdown();

/** A timeout for work that takes `quietMs` on the quiet machine, scaled by the slowdown, with a margin. */
export const budget = (quietMs: number): number => Math.max(FLOOR_MS, Math.ceil(quietMs * MARGIN * slowdown));

/**
 * An upper bound for a wait that takes at most `quietMs` on the quiet machine (a cancel taking effect, a
 * deadline firing), scaled the same way but without the floor: on a quiet machine it is `quietMs` × 3.
 */
export const scaled = (quietMs: number): number => Math.ceil(quietMs * MARGIN * slowdown);
