// rpc('billing_summary'): the signed-in customer's plan, status, trial end and next charge (or null).
import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';

import { supabase } from '../../../lib/supabase.ts';
import { billingKeys } from './keys.ts';

const summarySchema = z.nullable(
  z.object({
    status: z.string(),
    trial_ends_at: z.nullable(z.string()),
    current_period_ends_at: z.nullable(z.string()),
    cancel_at_period_end: z.boolean(),
    next_charge_amount: z.nullable(z.number()),
    next_charge_at: z.nullable(z.string()),
    agents: z.array(
      z.object({ id: z.string(), name: z.string(), price_monthly: z.number(), status: z.string() }),
    ),
  }),
);
export type BillingSummary = NonNullable<z.infer<typeof summarySchema>>;

export async function getBillingSummary(): Promise<BillingSummary | null> {
  const { data, error } = await (await supabase()).rpc('billing_summary');
  if (error) {
    throw error;
  }
  return summarySchema.parse(data);
}

export const billingSummaryQuery = (userId: string) =>
  queryOptions({ queryKey: billingKeys.summary(userId), queryFn: getBillingSummary });

export function useBillingSummary(userId: string | undefined) {
  return useQuery({ ...billingSummaryQuery(userId ?? ''), enabled: Boolean(userId) });
}
