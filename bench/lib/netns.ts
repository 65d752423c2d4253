// Benchmarks that listen on loopback and scan it run in a private network namespace (`unshare --net`,
// then `ip link set lo up`), never on a loopback other programs share. The parent starts a child script
// inside one and reads its rows (JSON on the child's last stdout line); the child checks where it is.
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';

import type { BenchRow } from './report.ts';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** Runs the TypeScript file `child` in a private network namespace and returns the rows it prints. */
export function rowsFromNamespace(
  child: string,
  what: string,
  env: Record<string, string> = {},
  maxBuffer = 16_000_000,
): BenchRow[] {
  if (!has('unshare') || !has('ip')) {
    throw new Error(`${what} need unshare (util-linux) and ip (iproute2) for a private network namespace`);
  }
  // `ulimit -n` up to the hard limit: sweeps and tarpits keep many sockets open at once.
  const inner = `ip link set lo up && { ulimit -n "$(ulimit -Hn)" 2>/dev/null || true; } && exec "$0" --import tsx "$1"`;
  const argv = process.getuid?.() === 0 ? ['--net'] : ['--user', '--map-root-user', '--net'];
  const out = execFileSync('unshare', [...argv, 'sh', '-c', inner, process.execPath, child], {
    encoding: 'utf8',
    env: { ...process.env, VIGIL_BENCH_NETNS: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer,
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '[]') as BenchRow[];
}

/** Exits unless this process runs in the private namespace `rowsFromNamespace` made. */
export function assertPrivateNamespace(): void {
  const interfaces = Object.keys(os.networkInterfaces());
  if (process.env.VIGIL_BENCH_NETNS !== '1' || interfaces.some((name) => name !== 'lo')) {
    console.error(
      `refusing to run: not inside a private network namespace (interfaces: ${interfaces.join(', ')})`,
    );
    process.exit(2);
  }
}
