// Realtime refresh of scan data (SPEC point 4): a card listens filtered by its scan_type, the page
// unfiltered; any change of the user's scan_results refreshes every query under 'scans'.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { supabase } from '../../../lib/supabase.ts';
import { scanningKeys } from '../api/keys.ts';
import type { ScannerType } from '../lib/scanners.ts';

let channelCount = 0;

export function useScanChanges(userId: string | undefined, scanType?: ScannerType): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) {
      return;
    }
    let stopped = false;
    let cleanup: (() => void) | undefined;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: scanningKeys.scans });
    void supabase().then((client) => {
      if (stopped) {
        return;
      }
      // A unique topic per mount: supabase-js hands back an existing channel of the same name.
      channelCount += 1;
      const channel = client
        .channel(`scan-results-${scanType ?? 'all'}-${channelCount}`)
        .on(
          'postgres_changes',
          {
            event: '*',
            schema: 'public',
            table: 'scan_results',
            ...(scanType ? { filter: `scan_type=eq.${scanType}` } : {}),
          },
          refresh,
        )
        .subscribe();
      cleanup = () => void client.removeChannel(channel);
    });
    return () => {
      stopped = true;
      cleanup?.();
    };
  }, [userId, scanType, queryClient]);
}
