// Removes one of the user's scan targets (its scans stay, unlinked).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { targetKeys } from './keys.ts';

export async function removeTarget(id: string): Promise<void> {
  const { error } = await (await supabase()).from('scan_targets').delete().eq('id', id);
  if (error) {
    throw new Error(error.message);
  }
}

export function useRemoveTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTarget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetKeys.all }),
  });
}
