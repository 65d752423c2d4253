// Realtime channel 'subscription-changes' (SPEC point 7): row changes of the user's subscription (and its
// per-agent rows) refresh every query under the 'subscription' key.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { supabase } from '../../../lib/supabase.ts';
import { billingKeys } from '../api/keys.ts';

export function useSubscriptionChanges(userId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) {
      return;
    }
    let stopped = false;
    let cleanup: (() => void) | undefined;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    void supabase().then((client) => {
      if (stopped) {
        return;
      }
      const filter = `user_id=eq.${userId}`;
      const channel = client
        .channel('subscription-changes')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'subscriptions', filter }, refresh)
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'user_agent_subscriptions', filter },
          refresh,
        )
        .subscribe();
      cleanup = () => void client.removeChannel(channel);
    });
    return () => {
      stopped = true;
      cleanup?.();
    };
  }, [userId, queryClient]);
}
