// billing-portal: cancel at period end, resume, or open the payment provider's portal.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { billingKeys } from './keys.ts';

export type BillingAction = 'portal' | 'cancel' | 'resume';

async function messageOf(error: unknown): Promise<string> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: unknown };
      if (typeof body.error === 'string') {
        return body.error;
      }
    } catch {
      // Not JSON: use the generic text below.
    }
  }
  return 'The subscription could not be updated. Please try again.';
}

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
    throw new Error(await messageOf(error));
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
