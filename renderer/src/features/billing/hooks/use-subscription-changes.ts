// Realtime channel 'subscription-changes' (docs/product.md §7): row changes of the user's subscription (and its
// per-agent rows) refresh every query under the 'subscription' key.
import { useTableChanges } from '../../../hooks/use-table-changes.ts';
import { billingKeys } from '../api/keys.ts';

export function useSubscriptionChanges(userId: string | undefined): void {
  const filter = `user_id=eq.${userId ?? ''}`;
  useTableChanges({
    topic: 'subscription-changes',
    watches: [
      { table: 'subscriptions', filter },
      { table: 'user_agent_subscriptions', filter },
    ],
    queryKey: billingKeys.all,
    enabled: userId !== undefined,
  });
}
