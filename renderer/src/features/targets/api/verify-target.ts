// security-scanner-integration action verify_target: the agents fetch the token from the target (or its
// DNS TXT record) and mark it verified. Answers {verified} or {pending} when the check is still queued.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import type { TargetKind } from '../lib/target-input.ts';
import { functionErrorText } from '../../../lib/function-error.ts';
import { targetKeys } from './keys.ts';

export interface VerifyResult {
  verified: boolean;
  pending: boolean;
  message: string;
}

const toolFor: Record<TargetKind, string> = { url: 'webapp', host: 'infrastructure', api: 'api' };

export async function verifyTarget({ id, kind }: { id: string; kind: TargetKind }): Promise<VerifyResult> {
  const { data, error } = (await (
    await supabase()
  ).functions.invoke('security-scanner-integration', {
    body: { action: 'verify_target', toolType: toolFor[kind], target: id },
  })) as { data: { verified?: boolean; pending?: boolean; message?: string } | null; error: unknown };
  if (error) {
    throw new Error(await functionErrorText(error, 'Verification failed. Please try again.'));
  }
  return { verified: data?.verified === true, pending: data?.pending === true, message: data?.message ?? '' };
}

export function useVerifyTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTarget,
    // Failed checks record verification_error on the row, so refresh either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: targetKeys.all }),
  });
}
