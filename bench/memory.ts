// What `npm start` costs a machine in memory: every process it runs (npm's own launcher aside), idle with
// nobody signed in, under the bench's load (stack-load.ts) and after it, with a row per V8 isolate of the
// stack process (/_stack/memory). BENCH_LOAD_SECONDS sets the load's length (default 60; the hour the
// target speaks of is `BENCH_LOAD_SECONDS=3600 BENCH_LOAD_RATE=100 npm run bench -- memory`), and
// BENCH_LOAD_RATE paces it to about that many requests per second (default: as fast as the stack answers).
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { IsolateMemory } from '../server/isolate-memory.ts';
import type { StackMemory } from '../server/stack-memory.ts';
import { npmStart, stopProduct, type StartedProduct } from './lib/npm-start.ts';
import { treeMemory } from './lib/processes.ts';
import type { BenchRow } from './lib/report.ts';
import { runLoad } from './lib/stack-load.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Resident memory of what `npm start` runs (the npm process excluded), the median of `samples` a second apart. */
async function resident(
  product: StartedProduct,
  samples = 5,
): Promise<{ rss: number; pss: number; note: string }> {
  const rss: number[] = [];
  const pss: number[] = [];
  let note = '';
  for (let i = 0; i < samples; i++) {
    const tree = await treeMemory(product.npm.pid!, (p) => p.pid === product.npm.pid);
    rss.push(tree.rssMb);
    pss.push(tree.pssMb);
    note = tree.processes.map((p) => `${label(p.command)} ${Math.round(p.rssMb)}`).join(', ');
    if (i < samples - 1) {
      await sleep(1000);
    }
  }
  return { rss: median(rss), pss: median(pss), note: `processes (MB): ${note}` };
}

/** What a process of the tree is, in a word. */
function label(command: string): string {
  if (command.startsWith('sh ') || command.startsWith('/bin/sh ')) {
    return 'shell';
  }
  if (/launch\.mjs start|start\.js/.test(command)) {
    return 'stack';
  }
  if (/scan-child/.test(command)) {
    return 'scan';
  }
  return path.basename(command.split(' ')[0] ?? command);
}

async function isolates(product: StartedProduct): Promise<IsolateMemory[]> {
  const res = await fetch(`${product.url}/_stack/memory`);
  return ((await res.json()) as StackMemory).isolates;
}

const isolateRows = (when: string, list: IsolateMemory[]): BenchRow[] =>
  list.map((i) => ({
    name: `  ${when}: isolate ${i.isolate}`,
    value: i.heap_committed_mb,
    unit: 'MB',
    note: `heap used ${i.heap_used_mb} MB, external ${i.external_mb} MB${i.wasm_memory_mb === undefined ? '' : `, WebAssembly memory ${i.wasm_memory_mb} MB (resident where touched)`}`,
  }));

export async function benchMemory(): Promise<BenchRow[]> {
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
  const work = await mkdtemp(path.join(tmpdir(), 'vigil-bench-memory-'));
  const env = { VIGIL_DATA_DIR: path.join(work, 'data'), VIGIL_AUTOCONFIRM: 'true' };
  // A first start creates the data directory; the measured one starts on it, as a user's second start does.
  await stopProduct(await npmStart(env));
  const product = await npmStart(env);
  try {
    // Settled: the agent's first duties and the REST schema cache run just after the start.
    await sleep(20_000);
    const idle = await resident(product);
    const idleIsolates = await isolates(product);

    const samples: { at: number; rss: number }[] = [];
    const started = performance.now();
    const rate = Number(process.env.BENCH_LOAD_RATE ?? 0);
    const report = await runLoad(product.url, {
      seconds,
      ...(rate > 0 ? { ratePerSecond: rate } : {}),
      tickMs: Math.max(2000, Math.min(60_000, (seconds * 1000) / 12)),
      onTick: async () => {
        const tree = await treeMemory(product.npm.pid!, (p) => p.pid === product.npm.pid);
        samples.push({ at: (performance.now() - started) / 1000, rss: tree.rssMb });
      },
    });
    const loaded = await resident(product, 3);
    const loadedIsolates = await isolates(product);
    const peak = Math.max(loaded.rss, ...samples.map((s) => s.rss));
    // Flat: the resident size at the end of the load against the one half-way through.
    const half = samples.find((s) => s.at >= seconds / 2)?.rss ?? NaN;
    const growth = loaded.rss - half;

    // After: the password-hashing threads end after 30 s idle.
    await sleep(40_000);
    const after = await resident(product);
    const afterIsolates = await isolates(product);
    const achieved = Math.round(report.requests / report.seconds);
    return [
      {
        name: 'npm start memory, idle (RSS, all processes)',
        value: idle.rss,
        unit: 'MB',
        target: '≤ 250',
        pass: idle.rss <= 250,
        note: `PSS ${Math.round(idle.pss)} MB; ${idle.note}; load ${loadavg()[0]!.toFixed(1)}`,
      },
      ...isolateRows('idle', idleIsolates),
      {
        name: `npm start memory, under load (peak of ${seconds} s)`,
        value: peak,
        unit: 'MB',
        target: '≤ 400',
        pass: peak <= 400,
        note: `${achieved} requests/s, ${report.errors} errors, ${report.limited} sign-ins rate-limited, ${report.realtimeEvents} realtime events; samples (s:MB) ${samples.map((s) => `${Math.round(s.at)}:${Math.round(s.rss)}`).join(' ')}`,
      },
      {
        name: "  growth over the load's second half",
        value: growth,
        unit: 'MB',
        target: '≤ 20',
        pass: growth <= 20,
        note: `${Math.round(half)} MB half-way, ${Math.round(loaded.rss)} MB at the end`,
      },
      ...isolateRows('under load', loadedIsolates),
      {
        name: 'npm start memory, 40 s after the load',
        value: after.rss,
        unit: 'MB',
        target: '≤ 400',
        pass: after.rss <= 400,
        note: `PSS ${Math.round(after.pss)} MB; ${after.note}`,
      },
      ...isolateRows('after load', afterIsolates),
    ];
  } finally {
    await stopProduct(product);
    await rm(work, { recursive: true, force: true });
  }
}
