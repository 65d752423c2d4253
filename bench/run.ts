// `npm run bench`: every benchmark; prints a table and writes bench/results/latest.json.
// `npm run bench -- NAME…` runs only the named groups (start, memory, rest, realtime, auth, scanners, hostile, web,
// reports, detection).
import { benchAuth } from './auth.ts';
import { benchDetection } from './detection.ts';
import { benchHostile } from './hostile.ts';
import { benchMemory } from './memory.ts';
import { benchProductStart } from './product-start.ts';
import { benchRealtime } from './realtime.ts';
import { report, type BenchRow } from './lib/report.ts';
import { benchReports } from './reports.ts';
import { benchRest } from './rest.ts';
import { benchScanners } from './scanners.ts';
import { benchStackStart } from './stack-start.ts';
import { benchWeb } from './web.ts';

const groups: Record<string, () => BenchRow[] | Promise<BenchRow[]>> = {
  start: async () => [...benchStackStart(), ...(await benchProductStart())],
  memory: () => benchMemory(),
  rest: () => benchRest(),
  realtime: () => benchRealtime(),
  auth: () => benchAuth(),
  web: () => benchWeb(),
  scanners: () => benchScanners(),
  hostile: () => benchHostile(),
  reports: () => benchReports(),
  detection: () => benchDetection(),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !(w in groups));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark group(s): ${unknown.join(', ')}. Known: ${Object.keys(groups).join(', ')}`,
  );
  process.exit(2);
}
const rows: BenchRow[] = [];
let failed = false;
for (const [name, run] of Object.entries(groups)) {
  if (wanted.length > 0 && !wanted.includes(name)) {
    continue;
  }
  try {
    rows.push(...(await run()));
  } catch (e) {
    // A group that cannot run is reported in the table, and the run exits non-zero at the end.
    failed = true;
    rows.push({
      name: `${name}: FAILED`,
      value: NaN,
      unit: '',
      note: e instanceof Error ? e.message : String(e),
    });
  }
}
await report(rows);
const lost = rows.filter((row) => row.gate && row.pass === false);
if (lost.length > 0) {
  console.error(`\nThe bench is lost on: ${lost.map((row) => row.name.trim()).join('; ')}`);
}
process.exit(failed || lost.length > 0 ? 1 : 0);
