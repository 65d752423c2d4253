// Timeouts and time bounds sized from the work and from how fast this machine is. Other engineers' test
// runs share these two cores: a test that hashes thirty passwords in 3 s on a quiet machine takes 30 s at a
// load of 12, and a fixed limit would fail it for nothing. The machine's speed is measured with the work
// that dominates the slow tests: one bcrypt hash at the product's cost.
import { createRequire } from 'node:module';

/** One bcrypt hash at cost 10 (server/auth/users.ts) on the quiet 2-core machine `npm test` must fit. */
const QUIET_HASH_MS = 60;
/** The load may change after a measure: a bound allows three times the measured slowness. */
const MARGIN = 3;
/**
 * How much slower than quiet this machine has been seen at its worst (a load of 16 on two cores, other
 * engineers' runs beside ours). A test's timeout only catches a hang, which lasts for ever: it allows that
 * much whatever the speed measured when the test file loaded, since the load can rise at any moment after.
 */
const WORST_SLOWDOWN = 10;
/** Below vitest's own default (30 s in vitest.config.ts) a timeout is never set. */
const FLOOR_MS = 30_000;

const bcrypt = createRequire(import.meta.url)('bcryptjs') as { hashSync(text: string, cost: number): string };

/** How many times slower than quiet the machine is right now (at least 1): the median of three hashes. */
export function slowdownNow(): number {
  bcrypt.hashSync('warm-up', 10);
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    bcrypt.hashSync('measure', 10);
    return performance.now() - started;
  });
  return Math.max(1, times.sort((a, b) => a - b)[1]! / QUIET_HASH_MS);
}

/** The slowdown measured when the test file loaded. */
export const slowdown = slowdownNow();

/**
 * A timeout for work that takes `quietMs` on the quiet machine: the worst slowdown seen here, or three
 * times the one measured at load when that is more.
 */
export const budget = (quietMs: number): number =>
  Math.max(FLOOR_MS, Math.ceil(quietMs * Math.max(WORST_SLOWDOWN, MARGIN * slowdown)));

/**
 * A bound on something the test asserts (a cancel taking effect, a deadline firing) that takes at most
 * `quietMs` on the quiet machine: measured right before the timed work, so that the bound stays as tight
 * as the machine allows. Returns the scaler: `const within = scaler(); ... expect(ms).toBeLessThan(within(1000))`.
 */
export function scaler(): (quietMs: number) => number {
  const now = slowdownNow();
  return (quietMs) => Math.ceil(quietMs * MARGIN * now);
}
