// rpc('my_trial_available'): whether the signed-in customer's next checkout comes with the 7-day free trial.
// One trial per customer (and per card, which the payment provider checks when the card is used). The key
// starts with 'subscription', so subscription changes refresh it.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { agentKeys } from './keys.ts';

export async function getTrialAvailable(): Promise<boolean> {
  const { data, error } = await (await supabase()).rpc('my_trial_available');
  if (error) {
    throw error;
  }
  return data;
}

export const trialAvailableQuery = (userId: string) =>
  queryOptions({ queryKey: agentKeys.trial(userId), queryFn: getTrialAvailable });

/**
 * True when the next checkout starts with a free trial. Visitors get the trial (their account is new);
 * undefined while a signed-in customer's answer loads.
 */
export function useTrialAvailable(userId: string | undefined): boolean | undefined {
  const query = useQuery({ ...trialAvailableQuery(userId ?? ''), enabled: Boolean(userId) });
  return userId ? query.data : true;
}
