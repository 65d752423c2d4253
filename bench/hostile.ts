// `npm run bench -- hostile`: each hostile target (tests/fixtures/hostile) scanned as the worker and the CLI
// scan it, in a process of its own, beside a benign target of the same type: the wall time against the
// case's budget, the peak memory of the scan's process tree against its cap, and how the scan ended. The
// scans run in a private network namespace (bench/hostile-netns.ts), like the scanner suites.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

import type { BenchRow } from './lib/report.ts';

const child = path.resolve(import.meta.dirname, 'hostile-netns.ts');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

export function benchHostile(): BenchRow[] {
  if (!has('unshare') || !has('ip')) {
    throw new Error('the hostile-target benchmarks need unshare (util-linux) and ip (iproute2)');
  }
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
