// Writes a batch into monitoring_metrics as the signed-in user (docs/product.md §6, §7): one insert per batch.
// For the flush when the page goes away, a REST-only supabase-js client whose fetch sets keepalive, so the
// request outlives the page; it is prepared at sign-in because nothing asynchronous may wait at unload.
import type { SupabaseClient } from '@supabase/supabase-js';

import type { Database } from '../../../../../shared/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { FlushOptions, Metric } from '../lib/metrics-queue.ts';

export interface MetricsSession {
  userId: string;
  accessToken: string;
  /**
   * The token may not write yet: it is password-only (aal1) and the user has a second factor, or that is not
   * known yet. Metrics wait in the queue until the session passes the second step (or signs out).
   */
  held: boolean;
}

let signedIn: MetricsSession | null = null;
let keepaliveClient: SupabaseClient<Database> | undefined;

/** A batch that must wait for the second factor: the queue keeps it and tries again later, quietly. */
export class MetricsHeld extends Error {
  constructor() {
    super('metrics wait for the second factor');
    this.name = 'MetricsHeld';
  }
}

/** Follows the session: rows are written only for this user, with this token. */
export function setMetricsSession(session: MetricsSession | null): void {
  signedIn = session;
  if (session && !keepaliveClient) {
    // Loaded lazily: supabase-js must stay out of the landing page's first chunk.
    void import('../../../lib/supabase-client.ts')
      .then((m) => m.createKeepaliveClient(() => Promise.resolve(signedIn?.accessToken ?? null)))
      .then(
        (client) => {
          keepaliveClient ??= client;
        },
        () => undefined, // Without config the normal client fails too; the unload flush just uses it.
      );
  }
}

export function currentMetricsUser(): string | null {
  return signedIn?.userId ?? null;
}

/** A refusal that a retry cannot fix (bad row, policy): retrying it every 5 s would only repeat it. */
const isPermanent = (status: number) => status >= 400 && status < 500 && ![401, 408, 429].includes(status);

export async function sendMetrics(batch: Metric[], { unloading }: FlushOptions): Promise<void> {
  const userId = currentMetricsUser();
  // Metrics of a previous user (or of nobody) cannot be written under this session: they are dropped.
  const rows = batch.filter((metric) => metric.user_id === userId);
  if (rows.length === 0) {
    return;
  }
  if (signedIn?.held) {
    throw new MetricsHeld();
  }
  const client = unloading && keepaliveClient ? keepaliveClient : await supabase();
  const { error, status } = await client.from('monitoring_metrics').insert(rows);
  if (error && !isPermanent(status)) {
    throw new Error(`monitoring_metrics insert failed: ${error.message}`);
  }
  if (error) {
    console.warn('monitoring_metrics refused a batch; it is dropped:', error.message);
  }
}
