import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STACK_NODE_FLAGS } from '../scripts/lib/node-build.mjs';
import type { BenchRow } from './lib/report.ts';

const child = path.resolve(import.meta.dirname, 'stack-start-child.ts');

interface StartTimes {
  inProcess: number;
  sinceProcessStart: number;
  /** startStack() to the first answered REST read (the schema cache is built in the background). */
  toFirstRest: number;
  /** stack.close(), which saves the REST schema cache when the database changed since it opened. */
  close: number;
}

function startOnce(dataDir: string): StartTimes {
  // With npm start's flags; the TypeScript is loaded through tsx (the rows from process start say so).
  const out = execFileSync(process.execPath, [...STACK_NODE_FLAGS, '--import', 'tsx', child, dataDir], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as StartTimes;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Stack start with an empty and with an existing data dir (targets: ≤ 3 s and ≤ 1 s), 3 runs each. */
export function benchStackStart(): BenchRow[] {
  const empty: number[] = [];
  const existing: number[] = [];
  const processEmpty: number[] = [];
  const processExisting: number[] = [];
  const restExisting: number[] = [];
  const closeEmpty: number[] = [];
  const closeExisting: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-'));
    try {
      const a = startOnce(dir);
      empty.push(a.inProcess);
      processEmpty.push(a.sinceProcessStart);
      closeEmpty.push(a.close);
      const b = startOnce(dir);
      existing.push(b.inProcess);
      processExisting.push(b.sinceProcessStart);
      restExisting.push(b.toFirstRest);
      closeExisting.push(b.close);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const e = median(empty);
  const x = median(existing);
  return [
    {
      name: 'stack start, empty data dir (startStack → first response)',
      value: e,
      unit: 'ms',
      target: '≤ 3000',
      pass: e <= 3000,
    },
    { name: 'stack start, existing data dir', value: x, unit: 'ms', target: '≤ 1000', pass: x <= 1000 },
    { name: '  same, from process start (incl. tsx), empty', value: median(processEmpty), unit: 'ms' },
    { name: '  same, from process start (incl. tsx), existing', value: median(processExisting), unit: 'ms' },
    { name: '  existing data dir, startStack → first REST read', value: median(restExisting), unit: 'ms' },
    // The first run on a new data dir saves the REST schema cache at close; the second finds it current.
    { name: '  stack.close(), new data dir (saves schema cache)', value: median(closeEmpty), unit: 'ms' },
    { name: '  stack.close(), existing data dir (cache current)', value: median(closeExisting), unit: 'ms' },
  ];
}
