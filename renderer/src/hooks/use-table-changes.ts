// Live refresh from realtime: while mounted, one channel listens to row changes of the given tables and
// invalidates every query under `queryKey`. Row-level security on the server decides which rows reach
// this user; the filters only narrow what a view cares about.
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { supabase } from '../lib/supabase.ts';

export interface TableWatch {
  table: string;
  /** A realtime filter such as `user_id=eq.<id>`. */
  filter?: string;
}

interface TableChanges {
  /** The channel's topic. */
  topic: string;
  /** Append a per-mount number: supabase-js hands back an existing channel of the same topic. */
  uniqueTopic?: boolean;
  watches: readonly TableWatch[];
  queryKey: QueryKey;
  /** Nothing is watched until this is true (e.g. while the session loads). */
  enabled?: boolean;
}

let mounts = 0;

export function useTableChanges({
  topic,
  uniqueTopic = false,
  watches,
  queryKey,
  enabled = true,
}: TableChanges): void {
  const queryClient = useQueryClient();
  // Callers pass fresh arrays each render; the effect depends on their content.
  const watchKey = JSON.stringify(watches);
  const queryKeyText = JSON.stringify(queryKey);
  useEffect(() => {
    if (!enabled) {
      return;
    }
    let stopped = false;
    let cleanup: (() => void) | undefined;
    const key = JSON.parse(queryKeyText) as QueryKey;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
    void supabase().then((client) => {
      if (stopped) {
        return;
      }
      mounts += 1;
      const channel = client.channel(uniqueTopic ? `${topic}-${mounts}` : topic);
      for (const { table, filter } of JSON.parse(watchKey) as TableWatch[]) {
        channel.on(
          'postgres_changes',
          { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) },
          refresh,
        );
      }
      channel.subscribe();
      cleanup = () => void client.removeChannel(channel);
    });
    return () => {
      stopped = true;
      cleanup?.();
    };
  }, [enabled, topic, uniqueTopic, watchKey, queryKeyText, queryClient]);
}
