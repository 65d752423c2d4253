// scan-target-login: saves or removes the login an authenticated web scan of a target signs in with. The
// login goes to the edge function, which seals it; nothing of it ever comes back (the target row shows
// only its kind and login page).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { TargetLogin } from '../../../../../shared/target-login.ts';
import { supabase } from '../../../lib/supabase.ts';
import { functionErrorText } from '../../../lib/function-error.ts';
import { targetKeys } from './keys.ts';

async function invoke(body: Record<string, unknown>, fallback: string): Promise<void> {
  const { error } = (await (await supabase()).functions.invoke('scan-target-login', { body })) as {
    error: unknown;
  };
  if (error) {
    throw new Error(await functionErrorText(error, fallback));
  }
}

export const saveTargetLogin = ({ targetId, login }: { targetId: string; login: TargetLogin }) =>
  invoke({ action: 'save', targetId, login }, 'The login could not be saved. Please try again.');

export const deleteTargetLogin = (targetId: string) =>
  invoke({ action: 'delete', targetId }, 'The login could not be removed. Please try again.');

export function useSaveTargetLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTargetLogin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetKeys.all }),
  });
}

export function useDeleteTargetLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTargetLogin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetKeys.all }),
  });
}
