// scan_results, latest by scan_type (docs/product.md §7): cached 30 s, polled every 5 s while the scan is active.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { TIMINGS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { isActive } from '../lib/scan-status.ts';
import type { ScannerType } from '../lib/scanners.ts';
import { scanningKeys } from './keys.ts';
import { SCAN_COLUMNS, type ScanRow } from './scan-row.ts';

export async function getLatestScan(userId: string, type: ScannerType): Promise<ScanRow | null> {
  const { data, error } = await (
    await supabase()
  )
    .from('scan_results')
    .select(SCAN_COLUMNS)
    .eq('user_id', userId)
    .eq('scan_type', type)
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) {
    throw error;
  }
  return data;
}

export const latestScanQuery = (userId: string, type: ScannerType) =>
  queryOptions({
    queryKey: scanningKeys.latest(userId, type),
    queryFn: () => getLatestScan(userId, type),
    staleTime: TIMINGS.latestScanCacheMs,
    refetchInterval: (query) => (isActive(query.state.data?.status) ? TIMINGS.scanPollMs : false),
  });

export function useLatestScan(userId: string | undefined, type: ScannerType) {
  return useQuery({ ...latestScanQuery(userId ?? '', type), enabled: Boolean(userId) });
}
