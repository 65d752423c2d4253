import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../agents/queue/client.ts';
import { Queue } from '../../../agents/queue/queue.ts';
import { enqueueDueScans } from '../../../agents/scheduler/scheduler.ts';
import { Worker } from '../../../agents/worker/worker.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import {
  customer,
  initialised,
  runTwoWorkersUntilDone,
  target,
  waitFor,
} from '../../helpers/queue-support.ts';

let stack: RunningStack;
let db: ServiceClient;
const service = () => createServiceClient(stack.url, stack.status.service_role_key);

beforeAll(async () => {
  stack = await startTestStack();
  db = service();
});
afterAll(() => stack.close());

async function addJobs(n: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({ kind: 'analysis', payload: { i }, ...extra }));
  const { data, error } = await db.from('jobs').insert(rows).select('id');
  expect(error).toBeNull();
  return data!.map((r) => r.id);
}

const job = async (id: string) =>
  (await stack.ctx.db.query<Record<string, unknown>>('select * from public.jobs where id = $1', [id]))
    .rows[0]!;

describe('job queue', () => {
  it('never gives one job to two claimers', async () => {
    const ids = await addJobs(30);
    const a = new Queue(service());
    const b = new Queue(service());
    const claims = await Promise.all([
      a.claim('A', ['analysis'], 7, 30),
      b.claim('B', ['analysis'], 7, 30),
      a.claim('A', ['analysis'], 7, 30),
      b.claim('B', ['analysis'], 7, 30),
      a.claim('A', ['analysis'], 7, 30),
      b.claim('B', ['analysis'], 7, 30),
    ]);
    const claimed = claims.flat().map((j) => j.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
    for (const id of claimed) {
      await a.complete(id, (await job(id)).locked_by as string);
    }
  });

  it('runs every job exactly once with two workers sharing the queue', async () => {
    const ids = await addJobs(12);
    const runs: string[] = [];
    const handler = async ({ job: j }: { job: { id: string } }) => {
      runs.push(j.id);
      await new Promise((r) => setTimeout(r, 20));
      return null;
    };
    await runTwoWorkersUntilDone(stack, ids, { handlers: { analysis: handler }, concurrency: 3 });
    expect(runs.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    const lockedBy = new Set((await Promise.all(ids.map(job))).map((j) => j.locked_by));
    expect([...lockedBy].every((w) => w === 'w1' || w === 'w2')).toBe(true);
  });

  it("gives a dead worker's job to another worker once its lease runs out", async () => {
    const [id] = await addJobs(1, { kind: 'report' });
    const hang = ({ signal }: { signal: AbortSignal }) =>
      new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null)));
    const crashing = new Worker({
      db: service(),
      mode: 'local',
      id: 'crashing',
      handlers: { report: hang },
      leaseSeconds: 1,
      heartbeatMs: 300,
      pollMs: 50,
      log: () => {},
    });
    crashing.start();
    await waitFor('first claim', async () => (await job(id!)).locked_by === 'crashing');
    crashing.kill();
    const rescuer = new Worker({
      db: service(),
      mode: 'local',
      id: 'rescuer',
      handlers: { report: () => Promise.resolve({ ok: true }) },
      leaseSeconds: 5,
      pollMs: 100,
      log: () => {},
    });
    // Before the lease runs out nobody may take it.
    expect(await rescuer.queue.claim('rescuer', ['report'], 5, 5)).toEqual([]);
    rescuer.start();
    const done = await waitFor(
      're-claimed and done',
      async () => {
        const j = await job(id!);
        return j.status === 'succeeded' ? j : null;
      },
      10_000,
    );
    await rescuer.stop();
    expect(done).toMatchObject({ locked_by: 'rescuer', attempts: 2 });
    expect(done.last_error).toBeNull();
  });

  it('retries with exponential back-off and dead-letters after max_attempts', async () => {
    const [id] = await addJobs(1, { max_attempts: 3, backoff_seconds: 1 });
    const q = new Queue(db);
    const gaps: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const claimed = await waitFor(
        `attempt ${attempt}`,
        async () => (await q.claim('retrier', ['analysis'], 1, 30)).find((j) => j.id === id),
        10_000,
        100,
      );
      expect(claimed.attempts).toBe(attempt);
      const outcome = await q.fail(id!, 'retrier', `boom ${attempt}`);
      const after = await job(id!);
      if (attempt < 3) {
        expect(outcome).toBe('queued');
        gaps.push((new Date(after.run_at as string).getTime() - Date.now()) / 1000);
        // Not claimable before its back-off ends.
        expect((await q.claim('retrier', ['analysis'], 5, 30)).some((j) => j.id === id)).toBe(false);
      } else {
        expect(outcome).toBe('dead');
        expect(after).toMatchObject({ status: 'dead', last_error: 'boom 3' });
      }
    }
    expect(gaps[0]).toBeGreaterThan(0.5);
    expect(gaps[0]).toBeLessThanOrEqual(1.05);
    expect(gaps[1]).toBeGreaterThan(1.5);
    expect(gaps[1]).toBeLessThanOrEqual(2.05);
  });

  it('dead-letters a permanent failure at once', async () => {
    const [id] = await addJobs(1, { max_attempts: 5 });
    const q = new Queue(db);
    await waitFor('claim', async () => (await q.claim('perm', ['analysis'], 5, 30)).some((j) => j.id === id));
    expect(await q.fail(id!, 'perm', 'bad payload', false)).toBe('dead');
    expect(await q.fail(id!, 'perm', 'again')).toBe('lost');
  });

  it('keeps the queue to the service role; customers read only their own jobs', async () => {
    const alice = await customer(stack);
    const bob = await customer(stack);
    await db.from('jobs').insert([
      { kind: 'analysis', user_id: alice.id, run_at: '2999-01-01T00:00:00Z' },
      { kind: 'analysis', user_id: bob.id, run_at: '2999-01-01T00:00:00Z' },
    ]);
    const { data: mine } = await alice.supabase.from('jobs').select('user_id');
    expect(mine!.map((j) => j.user_id)).toEqual([alice.id]);
    const { error: insertError } = await alice.supabase
      .from('jobs')
      .insert({ kind: 'scan', user_id: alice.id });
    expect(insertError?.code).toBe('42501');
    const { error: rpcError } = await alice.supabase.rpc('claim_jobs', {
      p_worker: 'x',
      p_kinds: ['analysis'],
      p_n: 10,
      p_lease_seconds: 30,
    });
    expect(rpcError).not.toBeNull();
    const { error: cancelError } = await alice.supabase.rpc('cancel_job', { p_job: crypto.randomUUID() });
    expect(cancelError).not.toBeNull();
    const { data: updated } = await alice.supabase
      .from('jobs')
      .update({ status: 'cancelled' })
      .eq('user_id', alice.id)
      .select();
    expect(updated ?? []).toEqual([]);
  });

  it('cancels a queued scan and marks its scan stopped', async () => {
    const alice = await customer(stack);
    const t = await target(stack, alice.id, 'https://cancel.example.com');
    const { data: jobId, error } = await db.rpc('enqueue_scan', {
      p_user: alice.id,
      p_tool: 'webapp',
      p_target_id: t.id,
      p_scanner: 'webapp',
    });
    expect(error).toBeNull();
    expect(await new Queue(db).cancel(jobId!)).toBe('queued');
    const { rows } = await stack.ctx.db.query<{ status: string }>(
      'select status::text from public.scan_results where job_id = $1',
      [jobId],
    );
    expect(rows[0]!.status).toBe('stopped');
    expect((await job(jobId!)).status).toBe('cancelled');
  });

  it('refuses to enqueue a scan of an unverified or foreign target', async () => {
    const alice = await customer(stack);
    const bob = await customer(stack);
    const unverified = await target(stack, alice.id, 'https://unverified.example.com', { verified: false });
    const bobs = await target(stack, bob.id, 'https://bob.example.com');
    for (const id of [unverified.id, bobs.id]) {
      const { error } = await db.rpc('enqueue_scan', {
        p_user: alice.id,
        p_tool: 'webapp',
        p_target_id: id,
        p_scanner: 'webapp',
      });
      expect(error?.code).toBe('42501');
    }
  });

  it('enqueues each 24-hour slot once, however many schedulers run', async () => {
    const alice = await customer(stack);
    const t = await target(stack, alice.id, 'https://scheduled.example.com');
    await initialised(stack, alice.id, 'webapp', { target_id: t.id });
    await initialised(stack, alice.id, 'cloud_security');
    const now = new Date();
    const [a, b] = await Promise.all([enqueueDueScans(service(), now), enqueueDueScans(service(), now)]);
    const mine = async () =>
      (
        await stack.ctx.db.query<{ idempotency_key: string }>(
          `select idempotency_key from public.jobs where user_id = $1 and kind = 'scan'`,
          [alice.id],
        )
      ).rows;
    expect(await mine()).toHaveLength(1);
    expect(a.enqueued + b.enqueued).toBeGreaterThanOrEqual(1);
    expect(
      [...a.skipped, ...b.skipped].some((s) => s.userId === alice.id && s.tool === 'cloud_security'),
    ).toBe(true);
    // Later in the same slot: nothing new. A scan of the slot still running also blocks nothing twice.
    await enqueueDueScans(service(), new Date(now.getTime() + 3_600_000));
    expect(await mine()).toHaveLength(1);
    // The next slot, once the first scan is over, is enqueued once more.
    await stack.ctx.db.query(`update public.scan_results set status = 'completed' where user_id = $1`, [
      alice.id,
    ]);
    await Promise.all([
      enqueueDueScans(service(), new Date(now.getTime() + 86_400_000)),
      enqueueDueScans(service(), new Date(now.getTime() + 86_400_000)),
    ]);
    expect(await mine()).toHaveLength(2);
  });
});
