// scan_results, the active ones (docs/product.md §7: status in_progress, plus queued ones waiting for a worker),
// polled every 5 s while any is running.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { TIMINGS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import { scanningKeys } from './keys.ts';
import { SCAN_COLUMNS, type ScanRow } from './scan-row.ts';

export async function getActiveScans(userId: string): Promise<ScanRow[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('scan_results')
    .select(SCAN_COLUMNS)
    .eq('user_id', userId)
    .in('status', ['queued', 'in_progress'])
    .order('created_at', { ascending: false });
  if (error) {
    throw error;
  }
  return data;
}

export const activeScansQuery = (userId: string) =>
  queryOptions({
    queryKey: scanningKeys.active(userId),
    queryFn: () => getActiveScans(userId),
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? TIMINGS.scanPollMs : false),
  });

export function useActiveScans(userId: string | undefined) {
  return useQuery({ ...activeScansQuery(userId ?? ''), enabled: Boolean(userId) });
}
