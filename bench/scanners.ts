// `npm run bench -- scanners`: issue 5's scanner benchmarks. The port sweeps, web scans and stop
// latencies run in bench/scanners-netns.ts inside a private network namespace (ARCHITECTURE.md §8:
// `unshare --net`, then `ip link set lo up`), never against this machine's shared loopback; the queue
// throughput runs here against an in-memory stack.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

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

function namespaceRows(): BenchRow[] {
  // `ulimit -n` up to the hard limit: a sweep keeps up to a thousand sockets open at once.
  const inner = `ip link set lo up && { ulimit -n "$(ulimit -Hn)" 2>/dev/null || true; } && exec "$0" --import tsx "$1"`;
  const argv = process.getuid?.() === 0 ? ['--net'] : ['--user', '--map-root-user', '--net'];
  const out = execFileSync('unshare', [...argv, 'sh', '-c', inner, process.execPath, child], {
    encoding: 'utf8',
    env: { ...process.env, VIGIL_BENCH_NETNS: '1', VIGIL_SCAN_NMAP: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16_000_000,
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '[]') as BenchRow[];
}

export async function benchScanners(): Promise<BenchRow[]> {
  if (!has('unshare') || !has('ip')) {
    throw new Error(
      'the scanner benchmarks need unshare (util-linux) and ip (iproute2) for a private network namespace',
    );
  }
  const notes = installTools();
  if (!has('nmap')) {
    throw new Error(
      `nmap is needed for the sweep comparison and is not installed${notes.length ? ` (${notes.join('; ')})` : ''}`,
    );
  }
  const rows = namespaceRows();
  rows.push(...(await benchQueueThroughput()));
  return rows;
}
