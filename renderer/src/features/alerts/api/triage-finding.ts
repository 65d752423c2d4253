// Triage of one finding by its owner (column-restricted update: status and accepted_until only). The
// database refuses 'fixed' from a customer (only a retest fixes) and an acceptance beyond a year.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

export type Triage =
  { status: 'open' } | { status: 'false_positive' } | { status: 'accepted_risk'; acceptedUntil: string };

export async function triageFinding({ id, triage }: { id: string; triage: Triage }): Promise<void> {
  const { data, error } = await (
    await supabase()
  )
    .from('findings')
    .update({
      status: triage.status,
      accepted_until: triage.status === 'accepted_risk' ? triage.acceptedUntil : null,
    })
    .eq('id', id)
    .select('id');
  if (error) {
    throw new Error(error.message);
  }
  // Guard: row-level security hides others' rows, so "no row updated" means it was not yours (or gone).
  if (data.length === 0) {
    throw new Error('This finding no longer exists.');
  }
}

export function useTriageFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: triageFinding,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
