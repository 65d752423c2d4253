// What a test needs from the machine, and the one way a test says it cannot run here: `requires(...)` as the
// options of `describe` or `it` (or `skipNow` inside a test, for what only running can tell). The reason
// travels in the test's metadata, where the skip reporter (skip-reporter.ts) tables it and, under CI=true,
// fails the run unless the machine cannot have the requirement (unavailableOnCi) or another stage of
// `npm test` runs the test (`stage:` requirements, checked across stages by scripts/test-summary.ts).
import { readFileSync } from 'node:fs';

import type { TestContext, TestOptions } from 'vitest';

/** A requirement this machine does not meet. */
export interface Unmet {
  /**
   * `kind:name`, stable across machines, grouped by in the skip table: `debian:nginx`, `npm:jquery@1.12.4`,
   * `root`, `ipv6-loopback`, `electron-binary`; `stage:postgres` when the test runs in that stage instead.
   */
  requirement: string;
  /** What is missing here and what provides it. */
  detail: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test was skipped (set only through this module). */
    unmet?: Unmet[];
  }
}

/**
 * Requirements that the machines `.ci/run` runs on cannot meet, each with why. A skip for any other
 * requirement fails a run with CI=true. Keep it short: each entry is a part of the product no test proves.
 */
export const unavailableOnCi: Readonly<Record<string, string>> = {
  'electron-binary':
    "npm does not run Electron's install script here (package.json allowScripts), so its binary is never downloaded, and the machines have no display",
};

/** The stages of `npm test` that run vitest, by the name `stage:` requirements use. */
export const vitestStages = {
  vitest: 'the vitest stage (on PGlite)',
  postgres: 'the PostgreSQL 15 stage (scripts/test-postgres.sh)',
  scanners: 'the scanner stage (tests/scanners/run.sh)',
  e2e: 'the end-to-end stage (scripts/test-e2e.sh)',
  'hosted-policy': 'the hosted-policy stage (tests/hosted-policy/run.sh)',
} as const;
export type VitestStage = keyof typeof vitestStages;

/** Options for `describe`/`it`: skip, saying why, when any check found its requirement unmet. */
export function requires(...checks: (Unmet | null | undefined)[]): TestOptions {
  const unmet = checks.filter((check): check is Unmet => Boolean(check));
  return unmet.length > 0 ? { skip: true, meta: { unmet } } : {};
}

/** Skips the running test, saying why (for what only running can tell, such as binding ::1). */
export function skipNow(context: TestContext, unmet: Unmet): never {
  context.task.meta.unmet = [unmet];
  return context.skip(`${unmet.requirement}: ${unmet.detail}`);
}

/** The test belongs to another stage, which runs it where this one cannot (a database, a browser). */
export const inStage = (stage: VitestStage, why: string): Unmet => ({
  requirement: `stage:${stage}`,
  detail: `${why}; runs in ${vitestStages[stage]}`,
});

/** Root, or root mapped in a user namespace (enough to bind a reserved port in a namespace of one's own). */
export const root = (why: string): Unmet | null =>
  process.getuid?.() === 0 ? null : { requirement: 'root', detail: `needs root: ${why}` };

/** Real root (not root mapped in a user namespace), for servers that switch to another user. */
export function realRoot(): Unmet | null {
  const isRealRoot =
    process.getuid?.() === 0 &&
    /^\s*0\s+0\s+4294967295\s*$/m.test(readFileSync('/proc/self/uid_map', 'utf8'));
  return isRealRoot
    ? null
    : {
        requirement: 'real-root',
        detail: 'needs real root, not a user namespace (the servers switch to another user)',
      };
}

/** Linux, for what reads /proc or uses Linux-only process groups. */
export const linux = (): Unmet | null =>
  process.platform === 'linux'
    ? null
    : { requirement: 'linux', detail: `runs on Linux only, not ${process.platform}` };
