// Insert a configuration (name, description, report_type, schedule_type, is_enabled, plus the browser's
// time zone for the schedule) and update is_enabled by id (docs/product.md §7).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import type { ConfigurationValues } from '../schema.ts';
import { reportKeys } from './keys.ts';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export async function createReportConfiguration(values: ConfigurationValues): Promise<void> {
  const { error } = await (await supabase()).from('report_configurations').insert({
    name: values.name,
    description: values.description || null,
    report_type: values.report_type,
    schedule_type: values.schedule_type,
    is_enabled: values.is_enabled,
    time_zone: browserTimeZone(),
  });
  if (error) {
    throw error;
  }
}

export async function setConfigurationEnabled({
  id,
  isEnabled,
}: {
  id: string;
  isEnabled: boolean;
}): Promise<void> {
  const { data, error } = await (
    await supabase()
  )
    .from('report_configurations')
    .update({ is_enabled: isEnabled })
    .eq('id', id)
    .select('id');
  // Guard: an update that matched no row (deleted, not ours) is a failure too, not a silent no-op.
  if (error || !data.length) {
    throw error ?? new Error('configuration not found');
  }
}

export function useCreateReportConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReportConfiguration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  });
}

export function useSetConfigurationEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setConfigurationEnabled,
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  });
}
