// billing-portal: cancel at period end, resume, or open the payment provider's portal.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { functionErrorBody } from '../../../lib/function-error.ts';
import { supabase } from '../../../lib/supabase.ts';
import { billingKeys } from './keys.ts';

export type BillingAction = 'portal' | 'cancel' | 'resume';

export async function manageSubscription(
  action: BillingAction,
): Promise<{ url?: string; cancel_at_period_end?: boolean }> {
  const { data, error } = (await (
    await supabase()
  ).functions.invoke('billing-portal', { body: { action } })) as {
    data: { url?: string; cancel_at_period_end?: boolean } | null;
    error: unknown;
  };
  if (error) {
    throw new Error(
      (await functionErrorBody(error)) ?? 'The subscription could not be updated. Please try again.',
    );
  }
  return data ?? {};
}

export function useManageSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: manageSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
