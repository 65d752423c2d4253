// One entry point for every scan type, used by the scan process (scan-process.ts) and the tests. The
// scan's time limit is applied here: at it, the scan's signal aborts with reason 'deadline' and the scan
// ends with what it found.
import { compareFindings } from '../../shared/findings.ts';
import type { ScanType } from '../../shared/findings.ts';
import { runApiScan } from './api/index.ts';
import type { ScanOptions, ScanResult } from './core/context.ts';
import { formatDuration, scanLimits } from './core/limits.ts';
import { deadlineSignal, scanStop } from './core/scan-stopped.ts';
import { runInfrastructureScan } from './infrastructure/index.ts';
import { runWebappScan } from './webapp/index.ts';

const scanners: Record<ScanType, (options: ScanOptions) => Promise<ScanResult>> = {
  webapp: runWebappScan,
  infrastructure: runInfrastructureScan,
  api: runApiScan,
};

export async function runScan(type: ScanType, options: ScanOptions): Promise<ScanResult> {
  const timeLimitMs = options.timeLimitMs ?? scanLimits(type).timeMs;
  const deadline = deadlineSignal(
    timeLimitMs,
    scanStop('deadline', `the scan reached its time limit of ${formatDuration(timeLimitMs)}`),
    options.signal,
  );
  try {
    const result = await scanners[type]({ ...options, timeLimitMs, signal: deadline.signal });
    return { ...result, findings: [...result.findings].sort(compareFindings) };
  } finally {
    deadline.dispose();
  }
}

export type { ScanOptions, ScanResult } from './core/context.ts';
