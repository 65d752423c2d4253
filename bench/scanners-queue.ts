// Queue throughput (docs/architecture.md §6): N short jobs through claim_jobs / complete_job with one and with two
// agent workers against an in-memory embedded stack. The jobs do no work, so this measures the queue.
import { createServiceClient } from '../agents/queue/client.ts';
import { Queue } from '../agents/queue/queue.ts';
import { Worker } from '../agents/worker/worker.ts';
import { UNLIMITED_RATE_LIMITS } from '../server/auth/settings.ts';
import { startStack } from '../server/stack.ts';
import type { BenchRow } from './lib/report.ts';

const JOBS = Number(process.env.VIGIL_BENCH_QUEUE_JOBS ?? 200);

export async function benchQueueThroughput(): Promise<BenchRow[]> {
  const stack = await startStack({
    auth: { rateLimits: UNLIMITED_RATE_LIMITS },
    port: 0,
    dataDir: 'memory',
    databaseUrl: undefined,
    smtpUrl: undefined,
  });
  const service = () => createServiceClient(stack.url, stack.status.service_role_key);
  const rows: BenchRow[] = [];
  try {
    for (const workers of [1, 2]) {
      const batch = crypto.randomUUID();
      const queue = new Queue(service());
      for (let i = 0; i < JOBS; i++) {
        await queue.enqueue({ kind: 'analysis', userId: null, payload: { bench: batch, i } });
      }
      let completed = 0;
      let allDone: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (allDone = resolve));
      const handler = () => {
        completed += 1;
        if (completed === JOBS) {
          allDone();
        }
        return Promise.resolve(undefined);
      };
      const started = performance.now();
      const pool = Array.from(
        { length: workers },
        () =>
          new Worker({
            db: service(),
            mode: 'local',
            handlers: { analysis: handler },
            concurrency: 4,
            pollMs: 20,
            log: () => undefined,
          }),
      );
      pool.forEach((w) => w.start());
      await finished;
      await Promise.all(pool.map((w) => w.stop()));
      const seconds = (performance.now() - started) / 1000;
      const { rows: left } = await stack.ctx.db.query<{ n: string }>(
        "select count(*)::text as n from public.jobs where payload->>'bench' = $1 and status <> 'succeeded'",
        [batch],
      );
      rows.push({
        name: `queue throughput, ${workers} worker${workers > 1 ? 's' : ''} (${JOBS} empty jobs)`,
        value: JOBS / seconds,
        unit: 'jobs/s',
        note: `concurrency 4 per worker; ${left[0]?.n ?? '?'} not succeeded afterwards`,
      });
    }
  } finally {
    await stack.close();
  }
  return rows;
}
