import { createClient, REALTIME_SUBSCRIBE_STATES as STATE } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startStack } from '../server/stack.ts';
import { benchUser } from './lib/fixtures.ts';
import { percentile, type BenchRow } from './lib/report.ts';

/**
 * Realtime insert-to-event latency with 1 and with 100 subscribers (each its own supabase-js client and
 * socket, all allowed to see the row): the time from the INSERT to each subscriber's callback.
 * Target: p50 ≤ 20 ms with 100 subscribers.
 */
export async function benchRealtime(events = 30): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const subscribers of [1, 100]) {
    const stack = await startStack({ port: 0, dataDir: 'memory' });
    const clients: { removeAllChannels(): Promise<unknown> }[] = [];
    try {
      const user = await benchUser(stack);
      const pending = new Map<string, { at: number; left: number; resolve: () => void }>();
      const latencies: number[] = [];
      const channels: Promise<void>[] = [];
      for (let s = 0; s < subscribers; s++) {
        const c = createClient(stack.url, stack.status.anon_key, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
        });
        await c.realtime.setAuth(user.token);
        clients.push(c);
        channels.push(
          new Promise<void>((resolve, reject) => {
            c.channel(`bench-${s}`)
              .on(
                'postgres_changes',
                {
                  event: 'INSERT',
                  schema: 'public',
                  table: 'security_events',
                  filter: `user_id=eq.${user.id}`,
                },
                (p) => {
                  const e = pending.get(String((p.new as { description: string }).description));
                  if (e) {
                    latencies.push(performance.now() - e.at);
                    if (--e.left === 0) {
                      e.resolve();
                    }
                  }
                },
              )
              .subscribe((status, err) => {
                if (status === STATE.SUBSCRIBED) {
                  resolve();
                } else if (status === STATE.CHANNEL_ERROR || status === STATE.TIMED_OUT) {
                  reject(new Error(`subscribe failed: ${status} ${err?.message ?? ''}`));
                }
              });
          }),
        );
      }
      await Promise.all(channels);
      for (let i = 0; i < events; i++) {
        const key = `bench-${subscribers}-${i}`;
        const done = new Promise<void>((resolve) =>
          pending.set(key, { at: performance.now(), left: subscribers, resolve }),
        );
        await stack.ctx.db.query(
          `insert into public.security_events (user_id, event_type, description, severity, status) values ($1, 'bench', $2, 'low', 'open')`,
          [user.id, key],
        );
        await Promise.race([
          done,
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error(`event ${key} not delivered to all`)), 10_000),
          ),
        ]);
      }
      latencies.sort((a, b) => a - b);
      const p50 = percentile(latencies, 50);
      rows.push(
        {
          name: `realtime insert→event p50, ${subscribers} subscriber${subscribers > 1 ? 's' : ''}`,
          value: p50,
          unit: 'ms',
          ...(subscribers === 100 ? { target: '≤ 20', pass: p50 <= 20 } : {}),
        },
        {
          name: `realtime insert→event p99, ${subscribers} subscriber${subscribers > 1 ? 's' : ''}`,
          value: percentile(latencies, 99),
          unit: 'ms',
        },
      );
    } finally {
      await Promise.all(clients.map((c) => c.removeAllChannels()));
      await stack.close();
    }
  }
  return rows;
}
