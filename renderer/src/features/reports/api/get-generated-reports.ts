// generated_reports with the linked configuration's name, newest first (docs/product.md §7). Polls while a
// report is generating, so a finished one turns green without a reload.
import { queryOptions, useQuery } from '@tanstack/react-query';

import type { Database } from '../../../../../shared/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { reportKeys } from './keys.ts';

export type GeneratedReport = Pick<
  Database['public']['Tables']['generated_reports']['Row'],
  'id' | 'status' | 'generated_at' | 'file_path' | 'configuration_id' | 'report_type' | 'failure_reason'
> & {
  report_configurations: { name: string } | null;
};

const POLL_MS = 3000;

export async function getGeneratedReports(): Promise<GeneratedReport[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('generated_reports')
    .select(
      'id, status, generated_at, file_path, configuration_id, report_type, failure_reason, report_configurations(name)',
    )
    .order('generated_at', { ascending: false })
    .limit(100);
  if (error) {
    throw error;
  }
  return data;
}

export const generatedReportsQuery = (userId: string) =>
  queryOptions({
    queryKey: reportKeys.generated(userId),
    queryFn: getGeneratedReports,
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'generating') ? POLL_MS : false),
  });

export function useGeneratedReports(userId: string | undefined) {
  return useQuery({ ...generatedReportsQuery(userId ?? ''), enabled: Boolean(userId) });
}
