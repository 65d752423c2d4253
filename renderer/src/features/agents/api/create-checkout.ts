// create-checkout-session (docs/product.md §5, §7, §8): {roleIds, userId} → the URL to send the buyer to.
import { useMutation } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { CHECKOUT_MESSAGES } from '../messages.ts';

export interface CheckoutInput {
  roleIds: string[];
  userId: string;
}

/** The function's own message ({error}) when it answered with one, else the client's. */
async function messageOf(error: unknown): Promise<string> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: unknown };
      if (typeof body.error === 'string' && body.error) {
        return body.error;
      }
    } catch {
      // Not JSON (a gateway page): fall through to the generic text.
    }
  }
  return error instanceof Error && error.message ? error.message : CHECKOUT_MESSAGES.activationFailed;
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
    throw new Error(await messageOf(error));
  }
  if (typeof data?.url !== 'string' || !data.url) {
    throw new Error(CHECKOUT_MESSAGES.noUrl);
  }
  return data.url;
}

export function useCreateCheckout() {
  return useMutation({ mutationFn: createCheckout });
}
