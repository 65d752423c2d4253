// Realtime refresh of scan data (docs/product.md §4): a card listens filtered by its scan_type, the page
// unfiltered; any change of the user's scan_results refreshes every query under 'scans'.
import { useTableChanges } from '../../../hooks/use-table-changes.ts';
import { scanningKeys } from '../api/keys.ts';
import type { ScannerType } from '../lib/scanners.ts';

export function useScanChanges(userId: string | undefined, scanType?: ScannerType): void {
  useTableChanges({
    topic: `scan-results-${scanType ?? 'all'}`,
    uniqueTopic: true,
    watches: [{ table: 'scan_results', ...(scanType ? { filter: `scan_type=eq.${scanType}` } : {}) }],
    queryKey: scanningKeys.scans,
    enabled: userId !== undefined,
  });
}
