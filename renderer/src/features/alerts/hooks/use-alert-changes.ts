// Realtime refresh of the Alerts page: any change of the user's security events, findings, ML insights or
// recommendations (new scans, fixes, triage from another tab) refreshes every query under 'alerts'.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from '../api/keys.ts';

let channelCount = 0;

export function useAlertChanges(userId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stopped = false;
    let cleanup: (() => void) | undefined;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: alertKeys.all });
    void supabase().then((client) => {
      if (stopped) {
        return;
      }
      channelCount += 1;
      const filter = `user_id=eq.${userId}`;
      const channel = client
        .channel(`alerts-${channelCount}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'security_events', filter }, refresh)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'findings', filter }, refresh)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'ml_insights', filter }, refresh)
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'ai_security_recommendations', filter },
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
