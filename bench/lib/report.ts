import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface BenchRow {
  /** e.g. "stack start (existing data dir)" */
  name: string;
  value: number;
  unit: string;
  /** The target from the issue, when there is one, e.g. "≤ 1000". */
  target?: string;
  /** Whether the measured value meets the target. */
  pass?: boolean;
  /**
   * A row the bench is lost on: when it does not pass, `npm run bench` exits non-zero (a fixture that could
   * not run, a detection class where a reference tool beats us). Speed targets only report.
   */
  gate?: boolean;
  note?: string;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) {
    return NaN;
  }
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Prints the table and writes bench/results/latest.json (plus a dated copy). */
export async function report(rows: BenchRow[]): Promise<string> {
  const widths = [46, 12, 6, 10, 6];
  const line = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i] ?? 10)).join(' ');
  console.log(line(['benchmark', 'value', 'unit', 'target', 'ok']));
  console.log('-'.repeat(86));
  for (const r of rows) {
    const ok = r.pass === undefined ? '' : r.pass ? 'yes' : 'NO';
    console.log(
      line([r.name, String(round(r.value)), r.unit, r.target ?? '', ok]) + (r.note ? `  ${r.note}` : ''),
    );
  }
  const dir = path.resolve(import.meta.dirname, '../results');
  await mkdir(dir, { recursive: true });
  const json = JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2);
  const file = path.join(dir, 'latest.json');
  await writeFile(file, json);
  await writeFile(path.join(dir, `bench-${Date.now()}.json`), json);
  console.log(`\nwritten: ${path.relative(process.cwd(), file)}`);
  return file;
}
