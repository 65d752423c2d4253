// "Generate now": rpc('request_report') enqueues a report of the caller's own configuration.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { reportKeys } from './keys.ts';

export async function generateReport(configurationId: string): Promise<string> {
  const { data, error } = await (
    await supabase()
  ).rpc('request_report', { p_configuration: configurationId });
  if (error) {
    throw error;
  }
  return data;
}

export function useGenerateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  });
}
