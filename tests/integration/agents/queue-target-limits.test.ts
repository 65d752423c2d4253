// Per-target concurrency through the real queue: claim_jobs holds a scan of a target that already runs
// max_concurrent_scans scans, for every worker, and hands the claim on to other work meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../agents/queue/client.ts';
import { Queue, type JobRow } from '../../../agents/queue/queue.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { customer, runTwoWorkersUntilDone, target } from '../../helpers/queue-support.ts';

let stack: RunningStack;
let db: ServiceClient;
const service = () => createServiceClient(stack.url, stack.status.service_role_key);

beforeAll(async () => {
  stack = await startTestStack();
  db = service();
});
afterAll(() => stack.close());

/** A verified target with the given concurrency, and one queued scan of it per tool. */
async function twoScans(maxConcurrent: number, tools: readonly ('webapp' | 'api')[] = ['webapp', 'api']) {
  const alice = await customer(stack);
  const t = await target(stack, alice.id, `https://limits-${crypto.randomUUID().slice(0, 8)}.example.com`);
  await stack.ctx.db.query('update public.scan_targets set max_concurrent_scans = $2 where id = $1', [
    t.id,
    maxConcurrent,
  ]);
  const jobs: string[] = [];
  for (const tool of tools) {
    const { data, error } = await db.rpc('enqueue_scan', {
      p_user: alice.id,
      p_tool: tool,
      p_target_id: t.id,
      p_scanner: tool,
    });
    expect(error).toBeNull();
    jobs.push(data!);
  }
  return { alice, targetId: t.id, jobs };
}

/** Two workers whose scan handler holds each job for `holdMs`, noting when it ran. */
async function runWithTwoWorkers(jobs: string[], holdMs: number) {
  const spans = new Map<string, { start: number; end: number }>();
  const handler = async ({ job }: { job: JobRow }) => {
    const start = Date.now();
    await new Promise((r) => setTimeout(r, holdMs));
    spans.set(job.id, { start, end: Date.now() });
    return null;
  };
  await runTwoWorkersUntilDone(stack, jobs, { handlers: { scan: handler }, concurrency: 2 });
  return jobs.map((id) => spans.get(id)!);
}

describe('per-target scan concurrency', () => {
  it('never runs two scans of a target limited to one at once, across two workers', async () => {
    const { jobs } = await twoScans(1);
    const [a, b] = (await runWithTwoWorkers(jobs, 600)).sort((x, y) => x.start - y.start);
    // The second waited in the queue until the first had finished.
    expect(b!.start).toBeGreaterThanOrEqual(a!.end);
  });

  it('runs them side by side when the target allows two', async () => {
    const { jobs } = await twoScans(2);
    const [a, b] = (await runWithTwoWorkers(jobs, 600)).sort((x, y) => x.start - y.start);
    expect(b!.start).toBeLessThan(a!.end);
  });

  it('claims past a busy target: other work is handed out, the held scan stays queued', async () => {
    const { jobs } = await twoScans(1);
    const { data: other } = await db.from('jobs').insert({ kind: 'analysis', payload: {} }).select('id');
    const queue = new Queue(service());
    const claimed = await queue.claim('solo', ['scan', 'analysis'], 5, 30);
    const claimedIds = claimed.map((j) => j.id);
    expect(claimedIds).toContain(other![0]!.id);
    expect(claimedIds.filter((id) => jobs.includes(id))).toHaveLength(1);
    const held = jobs.find((id) => !claimedIds.includes(id))!;
    // A second claimer gets nothing of this target while the first scan holds its lease.
    expect((await new Queue(service()).claim('other', ['scan'], 5, 30)).map((j) => j.id)).not.toContain(held);
    const { rows } = await stack.ctx.db.query<{ status: string }>(
      'select status from public.jobs where id = $1',
      [held],
    );
    expect(rows[0]!.status).toBe('queued');
    // Once the running scan completes, the held one is claimed.
    const running = claimed.find((j) => jobs.includes(j.id))!;
    expect(await queue.complete(running.id, 'solo')).toBe(true);
    expect((await queue.claim('other', ['scan'], 5, 30)).map((j) => j.id)).toContain(held);
  });

  it('lets the customer set the limits of their own targets, within bounds', async () => {
    const { alice, targetId } = await twoScans(1, ['webapp']);
    const ok = await alice.supabase
      .from('scan_targets')
      .update({ max_concurrent_scans: 3, rate_limit: 25 })
      .eq('id', targetId)
      .select('max_concurrent_scans, rate_limit')
      .single();
    expect(ok.error).toBeNull();
    expect(ok.data).toEqual({ max_concurrent_scans: 3, rate_limit: 25 });
    for (const bad of [0, 11]) {
      const { error } = await alice.supabase
        .from('scan_targets')
        .update({ max_concurrent_scans: bad })
        .eq('id', targetId);
      expect(error?.code).toBe('23514');
    }
  });
});
