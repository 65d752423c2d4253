import type { SupabaseClient } from '@supabase/supabase-js';
import { requireEnv } from '../_shared/env.ts';
import type { Order } from './order.ts';
import type { Urls } from './stripe-session.ts';

/** A random token for the local checkout form (CSRF). */
function formToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Local mode: a pending checkout session the embedded stack's /_checkout page shows and completes.
 * Its prices are the server's quote, stored so the page shows exactly what was priced.
 */
export async function createLocalSession(
  admin: SupabaseClient,
  userId: string,
  order: Order,
  urls: Urls,
): Promise<string> {
  const { data, error } = await admin
    .from('checkout_sessions')
    .insert({
      user_id: userId,
      role_ids: order.roles.map((r) => r.id),
      subtotal: order.quote.subtotal,
      discount: order.quote.discount,
      total: order.quote.total,
      success_url: urls.success_url,
      cancel_url: urls.cancel_url,
      csrf_token: formToken(),
      trial: order.trial,
    })
    .select('id')
    .single();
  if (error) {
    throw new Error(`checkout_sessions insert failed: ${error.message}`);
  }
  return `${requireEnv('SUPABASE_URL').replace(/\/$/, '')}/_checkout/${data.id as string}`;
}
