// The reference tools alone on an outside-corpus class, never our scanner: how each planted list is
// checked against the tools' reports before our scanner sees its target. Run inside a private network
// namespace:
//   unshare --net sh -c 'ip link set lo up && VIGIL_BENCH_NETNS=1 VIGIL_BENCH_OUTSIDE_RAW=/tmp/raw \
//     node --import tsx bench/detection/outside/tools-only.ts outside-tls [fixture-name-part]'
// `VIGIL_BENCH_OUTSIDE_JOBS=N` runs N fixtures at once (testssl.sh spends most of its 3 minutes a server
// waiting on its own openssl children, so a few at once shorten the whole without changing what each sees).
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { DetectionFixture } from '../types.ts';

const interfaces = Object.keys(os.networkInterfaces());
// Guard: the fixtures listen on loopback and the tools scan it; never on a loopback other programs share.
if (process.env.VIGIL_BENCH_NETNS !== '1' || interfaces.some((name) => name !== 'lo')) {
  console.error(`refusing to run: not inside a private network namespace (${interfaces.join(', ')})`);
  process.exit(2);
}

const [cls, only] = process.argv.slice(2);
if (!cls?.startsWith('outside-')) {
  console.error('usage: tools-only.ts outside-CLASS [fixture-name-part]');
  process.exit(2);
}
const jobs = Math.min(8, Math.max(1, Number(process.env.VIGIL_BENCH_OUTSIDE_JOBS ?? 1) || 1));
const file = path.resolve(import.meta.dirname, '../classes', `${cls}.ts`);
const { fixtures } = (await import(pathToFileURL(file).href)) as { fixtures: DetectionFixture[] };

/** One fixture's report, printed whole when it is done so that parallel runs do not interleave. */
async function report(fixture: DetectionFixture): Promise<string> {
  const running = await fixture.start().catch((error: unknown) => {
    return `${fixture.name}: FAILED TO START ${String(error)}`;
  });
  if (typeof running === 'string') {
    return running;
  }
  const lines = [
    `== ${fixture.name}`,
    `   planted: ${running.planted.map((p) => `${p.rule_id} @ ${p.location}`).join(', ')}`,
  ];
  try {
    for (const tool of fixture.tools) {
      const run = await tool.run(running).catch((error: unknown) => ({
        found: [],
        falsePositives: [],
        toolOnly: [],
        ms: 0,
        note: `FAILED ${String(error)}`,
      }));
      lines.push(
        `   ${tool.name} (${Math.round(run.ms)} ms): found ${run.found.map((p) => `${p.rule_id} @ ${p.location}`).join(', ') || '-'}`,
      );
      if (run.falsePositives.length) {
        lines.push(`     not planted: ${run.falsePositives.join('; ')}`);
      }
      for (const line of run.toolOnly ?? []) {
        lines.push(`     tool-only: ${line}`);
      }
      if (run.note) {
        lines.push(`     note: ${run.note}`);
      }
    }
  } finally {
    await running.close();
  }
  return lines.join('\n');
}

const queue = fixtures.filter((f) => !only || f.name.includes(only));
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      console.log(await report(next));
    }
  }),
);
process.exit(0);
