// The detection benchmark proper (docs/scanners/benches.md), inside a private network namespace (bench/detection.ts starts
// it with `unshare --net`): each class module's real servers are started on this namespace's loopback,
// scanned by us and by each installed reference tool, and measured against the planted list. Prints its
// rows as JSON on the last stdout line.
import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { PlantedIssue } from '../tests/fixtures/planted.ts';
import { measure } from '../tests/scanners/measure.ts';
import type { BenchRow } from './lib/report.ts';
import { round } from './lib/report.ts';
import { reviewOf, type Review } from './detection/tool-only-review.ts';
import type { DetectionFixture } from './detection/types.ts';

// Guard: the fixtures listen on loopback and the tools scan it; never on a loopback other programs share.
const interfaces = Object.keys(os.networkInterfaces());
if (process.env.VIGIL_BENCH_NETNS !== '1' || interfaces.some((name) => name !== 'lo')) {
  console.error(
    `refusing to run: not inside a private network namespace (interfaces: ${interfaces.join(', ')})`,
  );
  process.exit(2);
}

const log = (m: string) => console.error(`[detection] ${m}`);
const key = (i: PlantedIssue) => `${i.rule_id} @ ${i.location}`;
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const pct = (n: number, d: number) => (d === 0 ? 100 : (100 * n) / d);

/**
 * Class modules in bench/detection/classes, optionally only those named in VIGIL_BENCH_DETECTION, and of
 * their fixtures only those whose name holds one of VIGIL_BENCH_DETECTION_FIXTURES (comma-separated).
 */
async function classModules(): Promise<{ name: string; fixtures: DetectionFixture[] }[]> {
  const dir = path.resolve(import.meta.dirname, 'detection/classes');
  const wanted = (process.env.VIGIL_BENCH_DETECTION ?? '').split(',').filter(Boolean);
  const picked = (process.env.VIGIL_BENCH_DETECTION_FIXTURES ?? '').split(',').filter(Boolean);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort();
  const out = [];
  for (const file of files) {
    const name = file.replace(/\.ts$/, '');
    if (wanted.length > 0 && !wanted.includes(name)) {
      continue;
    }
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as {
      fixtures: DetectionFixture[];
    };
    const fixtures = module.fixtures.filter(
      (f) => picked.length === 0 || picked.some((part) => f.name.includes(part)),
    );
    if (fixtures.length > 0) {
      out.push({ name, fixtures });
    }
  }
  return out;
}

interface ClassTally {
  planted: Set<string>;
  ours: Set<string>;
  union: Set<string>;
  tools: Map<string, { found: Set<string>; covered: Set<string> }>;
  unexpected: number;
  /** What the tools flagged outside our rules, by `fixture | tool | line`, with its verdict if reviewed. */
  toolOnly: Map<string, Review | undefined>;
}

const tallies = new Map<string, ClassTally>();
function tally(cls: string): ClassTally {
  let t = tallies.get(cls);
  if (!t) {
    t = {
      planted: new Set(),
      ours: new Set(),
      union: new Set(),
      tools: new Map(),
      unexpected: 0,
      toolOnly: new Map(),
    };
    tallies.set(cls, t);
  }
  return t;
}

async function benchFixture(fixture: DetectionFixture, className: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  log(`${fixture.name}: starting`);
  const running = await fixture.start();
  try {
    const planted = running.planted;
    const id = (i: PlantedIssue) => `${fixture.name} | ${key(i)}`;
    for (const issue of planted) {
      tally(fixture.classOf(issue)).planted.add(id(issue));
    }
    const t = performance.now();
    const result = await fixture.scan(running);
    const ourMs = performance.now() - t;
    const m = measure(result.findings, planted, running.target);
    const missed = new Set(m.missed.map(key));
    for (const issue of planted) {
      if (!missed.has(key(issue))) {
        tally(fixture.classOf(issue)).ours.add(id(issue));
      }
    }
    for (const issue of m.unexpected) {
      tally(fixture.classOf(issue)).unexpected++;
    }
    const note = [
      `${round(ourMs / 1000, 2)} s, ${result.stats.requests} requests`,
      result.detail ?? '',
      m.missed.length ? `missed ${m.missed.map(key).join(', ')}` : '',
      m.unexpected.length ? `UNEXPECTED ${m.unexpected.map(key).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    rows.push({
      name: `${fixture.name}: ours recall`,
      value: m.recall * 100,
      unit: '%',
      note,
    });
    rows.push({
      name: `  ours precision`,
      value: m.precision * 100,
      unit: '%',
      target: '= 100',
      pass: m.unexpected.length === 0,
    });
    const union = new Set<string>();
    for (const tool of fixture.tools) {
      if (!has(tool.command)) {
        rows.push({
          name: `  ${tool.name}`,
          value: NaN,
          unit: '',
          note: `not installed (apt: ${tool.aptPackage})`,
        });
        continue;
      }
      log(`${fixture.name}: ${tool.name}`);
      const run = await tool.run(running);
      const plantedKeys = new Set(planted.map(key));
      const found = new Set(run.found.map(key).filter((k) => plantedKeys.has(k)));
      const covered = planted.filter((i) => tool.covers(i));
      for (const issue of planted) {
        const cls = fixture.classOf(issue);
        const entry = tally(cls).tools.get(tool.name) ?? { found: new Set(), covered: new Set() };
        tally(cls).tools.set(tool.name, entry);
        if (tool.covers(issue)) {
          entry.covered.add(id(issue));
        }
        if (found.has(key(issue))) {
          entry.found.add(id(issue));
          union.add(key(issue));
          tally(cls).union.add(id(issue));
        }
      }
      const foundCount = found.size + run.falsePositives.length;
      const toolOnly = run.toolOnly ?? [];
      for (const line of toolOnly) {
        tally(className).toolOnly.set(`${fixture.name} | ${tool.name} | ${line}`, reviewOf(tool.name, line));
      }
      rows.push({
        name: `  ${tool.name} recall (of ${covered.length} it covers)`,
        value: pct(covered.filter((i) => found.has(key(i))).length, covered.length),
        unit: '%',
        note: [
          `${round(run.ms / 1000, 2)} s; ours/tool time ${round(ourMs / run.ms, 3)}`,
          `precision ${round(pct(found.size, foundCount), 1)} %`,
          run.falsePositives.length ? `false: ${run.falsePositives.join(', ')}` : '',
          toolOnly.length ? `tool-only: ${toolOnly.join(' | ')}` : '',
          run.note ?? '',
        ]
          .filter(Boolean)
          .join('; '),
      });
    }
    rows.push({
      name: `  union of the tools' recall`,
      value: pct(union.size, planted.length),
      unit: '%',
      note: `ours ${round(m.recall * 100, 1)} %`,
    });
  } finally {
    await running.close();
  }
  return rows;
}

/** A fixture's rows; one that cannot run loses the bench (its class would be measured without it). */
async function fixtureRows(fixture: DetectionFixture, className: string): Promise<BenchRow[]> {
  try {
    return await benchFixture(fixture, className);
  } catch (e) {
    return [
      {
        name: `${fixture.name}: FAILED`,
        value: NaN,
        unit: '',
        pass: false,
        gate: true,
        note: e instanceof Error ? e.message : String(e),
      },
    ];
  }
}

// VIGIL_BENCH_DETECTION_JOBS=N runs N fixtures of a class at once (each on its own ports): recall and
// precision are the same, but every time is then measured under the others' load. Default 1.
const jobs = Math.min(8, Math.max(1, Number(process.env.VIGIL_BENCH_DETECTION_JOBS ?? 1) || 1));
if (jobs > 1) {
  log(`${jobs} fixtures at once: times are measured under each other's load`);
}
const rows: BenchRow[] = [];
for (const module of await classModules()) {
  const perFixture: BenchRow[][] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let i = next++; i < module.fixtures.length; i = next++) {
        perFixture[i] = await fixtureRows(module.fixtures[i]!, module.name);
      }
    }),
  );
  rows.push(...perFixture.flat());
}
for (const [cls, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
  const toolOnly = [...t.toolOnly];
  const unreviewed = toolOnly.filter(([, review]) => !review).map(([line]) => line);
  const weMiss = toolOnly.filter(([, review]) => review?.verdict === 'we-miss').map(([line]) => line);
  // What we miss that only a tool found counts against us like a planted issue we miss; so does each
  // of our own false positives.
  const ours = pct(t.ours.size, t.planted.size + weMiss.length);
  const union = pct(t.union.size + weMiss.length, t.planted.size + weMiss.length);
  const onlyTools = [...t.union].filter((i) => !t.ours.has(i));
  rows.push({
    name: `class ${cls}: ours recall vs the tools' union`,
    value: ours,
    unit: '%',
    target: `≥ ${round(union, 1)}, no false positive`,
    pass: onlyTools.length === 0 && weMiss.length === 0 && t.unexpected === 0,
    gate: true,
    note: [
      `${t.planted.size} planted; ours ${t.ours.size}, union ${t.union.size}`,
      ...[...t.tools].map(([name, e]) => `${name} ${e.found.size}/${e.covered.size}`),
      onlyTools.length ? `only the tools: ${onlyTools.join(', ')}` : '',
      weMiss.length ? `only the tools, outside our rules: ${weMiss.join(', ')}` : '',
      t.unexpected ? `${t.unexpected} false positives of ours` : '',
    ]
      .filter(Boolean)
      .join('; '),
  });
  if (toolOnly.length > 0) {
    // Every finding outside our rules is listed; each needs a verdict (bench/detection/tool-only-review.ts).
    rows.push({
      name: `class ${cls}: tool-only findings without a verdict`,
      value: unreviewed.length,
      unit: '',
      target: '= 0',
      pass: unreviewed.length === 0,
      gate: true,
      note: [
        `${toolOnly.length} tool-only`,
        ...[...new Set(toolOnly.map(([, review]) => review?.verdict).filter(Boolean))].map(
          (verdict) => `${verdict} ${toolOnly.filter(([, review]) => review?.verdict === verdict).length}`,
        ),
        unreviewed.length ? `to review: ${unreviewed.join(' || ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    });
  }
}
console.log(JSON.stringify(rows.map((r) => ({ ...r, value: round(r.value, 3) }))));
process.exit(0);
