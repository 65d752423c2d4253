// Adds a scan target of the signed-in user. Only kind, value and the OpenAPI URL are the customer's to
// write; the token and the proof are set by the database and the verifier.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import type { TargetKind } from '../lib/target-input.ts';
import { targetKeys } from './keys.ts';

export interface NewTarget {
  userId: string;
  kind: TargetKind;
  value: string;
  openapi_url: string | null;
}

export async function addTarget({ userId, kind, value, openapi_url }: NewTarget): Promise<string> {
  const { data, error } = await (
    await supabase()
  )
    .from('scan_targets')
    .insert({ user_id: userId, kind, value, openapi_url })
    .select('id')
    .single();
  if (error) {
    // unique (user_id, value): the same target twice.
    throw new Error(error.code === '23505' ? 'You already added this target.' : error.message);
  }
  return data.id;
}

export function useAddTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTarget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetKeys.all }),
  });
}
