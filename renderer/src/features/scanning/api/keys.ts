// Query keys of the scanning feature. Everything about scans starts with 'scans', so a realtime change of
// scan_results refreshes it with one prefix; scanner configurations have their own (60 s cache).
import type { ScannerType } from '../lib/scanners.ts';

export const scanningKeys = {
  scans: ['scans'] as const,
  latest: (userId: string, type: ScannerType) => ['scans', 'latest', userId, type] as const,
  active: (userId: string) => ['scans', 'active', userId] as const,
  recent: (userId: string) => ['scans', 'recent', userId] as const,
  config: (userId: string, type: ScannerType) => ['scanner-config', userId, type] as const,
};
