// The user's latest 10 scans, newest start first (docs/product.md §7 and §9).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { LIST_LIMITS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { scanningKeys } from './keys.ts';
import { SCAN_COLUMNS, type ScanRow } from './scan-row.ts';

export async function getRecentScans(userId: string): Promise<ScanRow[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('scan_results')
    .select(SCAN_COLUMNS)
    .eq('user_id', userId)
    .order('start_time', { ascending: false, nullsFirst: false })
    .limit(LIST_LIMITS.scans);
  if (error) {
    throw error;
  }
  return data;
}

export const recentScansQuery = (userId: string) =>
  queryOptions({ queryKey: scanningKeys.recent(userId), queryFn: () => getRecentScans(userId) });

export function useRecentScans(userId: string | undefined) {
  return useQuery({ ...recentScansQuery(userId ?? ''), enabled: Boolean(userId) });
}
