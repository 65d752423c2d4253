// The hostile-target benchmark proper; runs only inside a private network namespace (bench/hostile.ts).
// Prints its rows as JSON on the last stdout line.
import type { ScanType } from '../shared/findings.ts';
import { runIsolatedScan } from '../agents/scanners/isolation/scan-process.ts';
import { runScan } from '../agents/scanners/run-scan.ts';
import type { IsolatedScanResult } from '../agents/scanners/isolation/scan-process.ts';
import { startBannerServices } from '../tests/fixtures/services/banner-services.ts';
import type { HostileCase } from '../tests/fixtures/hostile/case.ts';
import { hostileCases } from '../tests/fixtures/hostile/index.ts';
import { startVulnerableApi } from '../tests/fixtures/web/vulnerable-api.ts';
import { startVulnerableWebapp } from '../tests/fixtures/web/vulnerable-webapp.ts';
import { assertPrivateNamespace } from './lib/netns.ts';
import type { BenchRow } from './lib/report.ts';
import { round } from './lib/report.ts';

assertPrivateNamespace();
const log = (m: string) => console.error(`[hostile] ${m}`);

async function scan(
  type: ScanType,
  target: string,
  extra: { ports?: string; timeLimitMs?: number } = {},
): Promise<{ ms: number; result: IsolatedScanResult }> {
  const started = performance.now();
  const result = await runIsolatedScan(type, {
    target,
    mode: 'local',
    ...(extra.ports ? { ports: extra.ports } : {}),
    ...(extra.timeLimitMs ? { limits: { timeMs: extra.timeLimitMs } } : {}),
  });
  return { ms: performance.now() - started, result };
}

function ending(result: IsolatedScanResult): string {
  const parts = [
    result.stopped ? `stopped: ${result.stopped.reason}` : result.partial ? 'partial' : 'complete',
    ...result.phase_errors.map((e) => `${e.phase} did not finish`),
  ];
  return `${parts.join('; ')}; ${result.findings.length} findings`;
}

const rows: BenchRow[] = [];
const baselines: Record<ScanType, () => Promise<{ target: string; ports?: string; close(): Promise<void> }>> =
  {
    webapp: () => startVulnerableWebapp(),
    api: () => startVulnerableApi(),
    infrastructure: async () => {
      const services = await startBannerServices();
      return { target: services.target, close: services.close };
    },
  };
for (const type of ['webapp', 'api', 'infrastructure'] as const) {
  const fixture = await baselines[type]();
  try {
    const { ms, result } = await scan(type, fixture.target);
    log(`benign ${type}: ${Math.round(ms)} ms, ${result.resources.peak_memory_mb} MB`);
    rows.push(
      {
        name: `hostile: benign ${type} baseline, wall`,
        value: round(ms / 1000, 1),
        unit: 's',
        note: ending(result),
      },
      {
        name: `hostile: benign ${type} baseline, peak memory`,
        value: result.resources.peak_memory_mb ?? NaN,
        unit: 'MB',
        note: `cap ${result.resources.memory_cap_mb} MB, ${result.resources.peak_processes} processes`,
      },
    );
  } finally {
    await fixture.close();
  }
}

/**
 * What the process boundary costs a scan: the same API scan in this process and in its own (median of
 * three each), and how long the scan process takes to report its first progress.
 */
async function isolationCost(): Promise<void> {
  const api = await startVulnerableApi();
  try {
    const inProcess: number[] = [];
    const isolated: number[] = [];
    const firstProgress: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      let started = performance.now();
      await runScan('api', { target: api.target, mode: 'local' });
      inProcess.push(performance.now() - started);
      started = performance.now();
      let first = NaN;
      await runIsolatedScan('api', {
        target: api.target,
        mode: 'local',
        onProgress: () => {
          if (Number.isNaN(first)) {
            first = performance.now() - started;
          }
        },
      });
      isolated.push(performance.now() - started);
      firstProgress.push(first);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    rows.push(
      {
        name: 'hostile: process boundary, cost per scan (api, median of 3)',
        value: Math.round(median(isolated) - median(inProcess)),
        unit: 'ms',
        note: `in process ${Math.round(median(inProcess))} ms, own process ${Math.round(median(isolated))} ms`,
      },
      {
        name: 'hostile: process boundary, start to first progress',
        value: Math.round(median(firstProgress)),
        unit: 'ms',
        note: 'fork, TypeScript loaded through tsx, the scan under way',
      },
    );
  } finally {
    await api.close();
  }
}
await isolationCost();

async function runCase(hostile: HostileCase): Promise<void> {
  const target = await hostile.start();
  try {
    const { ms, result } = await scan(hostile.type, target.target, {
      ...(target.ports ? { ports: target.ports } : {}),
      ...(hostile.timeLimitMs ? { timeLimitMs: hostile.timeLimitMs } : {}),
    });
    const forbidden = result.findings.filter((f) => hostile.forbidden.includes(f.rule_id));
    log(`${hostile.name}: ${Math.round(ms)} ms, ${result.resources.peak_memory_mb} MB, ${ending(result)}`);
    rows.push(
      {
        name: `hostile: ${hostile.name}, wall`,
        value: round(ms / 1000, 1),
        unit: 's',
        target: `≤ ${round(hostile.budgetMs / 1000, 0)}`,
        pass: ms <= hostile.budgetMs && forbidden.length === 0,
        note: `${hostile.behaviour}; ${ending(result)}${forbidden.length ? `; FALSE: ${forbidden.map((f) => f.rule_id).join(', ')}` : ''}`,
      },
      {
        name: `hostile: ${hostile.name}, peak memory`,
        value: result.resources.peak_memory_mb ?? NaN,
        unit: 'MB',
        target: `≤ ${result.resources.memory_cap_mb}`,
        pass: (result.resources.peak_memory_mb ?? 0) <= result.resources.memory_cap_mb,
        note: `${result.resources.peak_processes} processes`,
      },
    );
  } finally {
    await target.close();
  }
}

for (const hostile of hostileCases) {
  try {
    await runCase(hostile);
  } catch (error) {
    rows.push({
      name: `hostile: ${hostile.name}: FAILED`,
      value: NaN,
      unit: '',
      pass: false,
      note: String(error),
    });
  }
}
console.log(JSON.stringify(rows));
