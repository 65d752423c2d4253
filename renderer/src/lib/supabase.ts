// The one supabase-js client of the renderer. It is created on first use (config fetched and validated,
// supabase-js loaded), and every caller shares the same promise, so there is never a second client. A
// visitor without a stored session may never need it: the landing page and /auth load without it.
import type { SupabaseClient } from '@supabase/supabase-js';

import type { Database } from '../../../shared/database.types.ts';

type PendingClient = Promise<SupabaseClient<Database>>;

let client: PendingClient | undefined;
const createdListeners = new Set<(pending: PendingClient) => void>();

export function supabase(): PendingClient {
  if (!client) {
    client = import('./supabase-client.ts').then((module) => module.createSupabaseClient());
    for (const listener of createdListeners) {
      listener(client);
    }
  }
  return client;
}

/**
 * Calls `listener` with the client's promise as soon as anything creates the client (at once if it exists
 * already), so the session provider follows a client it did not create itself; returns the unsubscribe.
 */
export function onSupabaseCreated(listener: (pending: PendingClient) => void): () => void {
  if (client) {
    listener(client);
    return () => {};
  }
  createdListeners.add(listener);
  return () => {
    createdListeners.delete(listener);
  };
}
