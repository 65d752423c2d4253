// One entry point for every scan type, used by the CLI and the agent worker.
import { compareFindings } from '../../shared/findings.ts';
import type { ScanType } from '../../shared/findings.ts';
import { runApiScan } from './api/index.ts';
import type { ScanOptions, ScanResult } from './core/context.ts';
import { runInfrastructureScan } from './infrastructure/index.ts';
import { runWebappScan } from './webapp/index.ts';

const scanners: Record<ScanType, (options: ScanOptions) => Promise<ScanResult>> = {
  webapp: runWebappScan,
  infrastructure: runInfrastructureScan,
  api: runApiScan,
};

export async function runScan(type: ScanType, options: ScanOptions): Promise<ScanResult> {
  const result = await scanners[type](options);
  return { ...result, findings: [...result.findings].sort(compareFindings) };
}

export type { ScanOptions, ScanResult } from './core/context.ts';
