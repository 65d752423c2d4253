// `npm run bench -- scanners`: the scanner benchmarks of docs/scanners/benches.md. The port sweeps, web scans and stop
// latencies run in bench/scanners-netns.ts inside a private network namespace (docs/architecture.md §8:
// `unshare --net`, then `ip link set lo up`), never against this machine's shared loopback; the queue
// throughput runs here against an in-memory stack.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { rowsFromNamespace } from './lib/netns.ts';
import type { BenchRow } from './lib/report.ts';
import { benchQueueThroughput } from './scanners-queue.ts';

const child = path.resolve(import.meta.dirname, 'scanners-netns.ts');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** nmap (required), nginx and wapiti (optional) from apt when missing; the namespace cannot fetch them later. */
function installTools(): string[] {
  const notes: string[] = [];
  const isRoot = process.getuid?.() === 0;
  for (const [cmd, pkg] of [
    ['nmap', 'nmap'],
    ['nginx', 'nginx-light'],
    ['wapiti', 'wapiti'],
  ] as const) {
    // Guard: only root on Debian installs packages; anyone else gets a note and the fallback.
    if (has(cmd) || !isRoot || !has('apt-get')) {
      continue;
    }
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () =>
      spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'ignore', env }).status === 0;
    if (!install()) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
      if (!install()) {
        notes.push(`could not install ${pkg}`);
      }
    }
  }
  return notes;
}

export async function benchScanners(): Promise<BenchRow[]> {
  const notes = installTools();
  if (!has('nmap')) {
    throw new Error(
      `nmap is needed for the sweep comparison and is not installed${notes.length ? ` (${notes.join('; ')})` : ''}`,
    );
  }
  const rows = rowsFromNamespace(child, 'the scanner benchmarks', { VIGIL_SCAN_NMAP: 'off' });
  rows.push(...(await benchQueueThroughput()));
  return rows;
}
