// The owner's consent to intrusive checks on one target (scan_targets.allow_intrusive). Row-level security
// lets only the target's owner change it; the database records when it was given.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { targetKeys } from './keys.ts';

export async function setIntrusiveConsent(input: { id: string; allow: boolean }): Promise<boolean> {
  const { data, error } = await (
    await supabase()
  )
    .from('scan_targets')
    .update({ allow_intrusive: input.allow })
    .eq('id', input.id)
    .select('allow_intrusive');
  if (error) {
    throw new Error(error.message);
  }
  // Guard: no row changed means the target is gone or not ours; say so rather than show a switch that lies.
  if (data.length !== 1) {
    throw new Error('The target was not found among yours.');
  }
  return data[0]!.allow_intrusive;
}

export function useIntrusiveConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setIntrusiveConsent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetKeys.all }),
  });
}
