// report_configurations: all fields, newest created_at first (docs/product.md §7).
import { queryOptions, useQuery } from '@tanstack/react-query';

import type { Database } from '../../../../../shared/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { reportKeys } from './keys.ts';

export type ReportConfiguration = Database['public']['Tables']['report_configurations']['Row'];

export async function getReportConfigurations(): Promise<ReportConfiguration[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('report_configurations')
    .select('*')
    .order('created_at', { ascending: false });
  if (error) {
    throw error;
  }
  return data;
}

export const reportConfigurationsQuery = (userId: string) =>
  queryOptions({
    queryKey: reportKeys.configurations(userId),
    queryFn: getReportConfigurations,
    // The scheduler fills next_run_at of a new configuration within a minute.
    refetchInterval: (query) =>
      query.state.data?.some((c) => c.is_enabled && !c.next_run_at && !c.last_run_at) ? 15_000 : false,
  });

export function useReportConfigurations(userId: string | undefined) {
  return useQuery({ ...reportConfigurationsQuery(userId ?? ''), enabled: Boolean(userId) });
}
