// create-checkout-session (docs/product.md §5, §7, §8): {roleIds, userId} → the URL to send the buyer to.
import { useMutation } from '@tanstack/react-query';

import { functionErrorText } from '../../../lib/function-error.ts';
import { supabase } from '../../../lib/supabase.ts';
import { CHECKOUT_MESSAGES } from '../messages.ts';

export interface CheckoutInput {
  roleIds: string[];
  userId: string;
}

export async function createCheckout({ roleIds, userId }: CheckoutInput): Promise<string> {
  // Checked before any call, with the product's messages (the server checks the same again).
  if (roleIds.length === 0) {
    throw new Error(CHECKOUT_MESSAGES.noAgents);
  }
  if (!userId) {
    throw new Error(CHECKOUT_MESSAGES.notLoggedIn);
  }
  const { data, error } = (await (
    await supabase()
  ).functions.invoke('create-checkout-session', {
    body: { roleIds, userId },
  })) as { data: { url?: unknown } | null; error: unknown };
  if (error) {
    throw new Error(await functionErrorText(error, CHECKOUT_MESSAGES.activationFailed));
  }
  if (typeof data?.url !== 'string' || !data.url) {
    throw new Error(CHECKOUT_MESSAGES.noUrl);
  }
  return data.url;
}

export function useCreateCheckout() {
  return useMutation({ mutationFn: createCheckout });
}
