// The worker while one of its jobs scans a hostile target (every answer drips forever): a normal scan on
// the same worker still finishes as it would alone, a cancel of the hostile one takes effect at once
// (its scan process and every connection to the target gone), and a job that outruns its time limit
// gives its slot back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createServiceClient } from '../../../agents/queue/client.ts';
import { Queue } from '../../../agents/queue/queue.ts';
import { startAgent, type Agent } from '../../../agents/worker/agent.ts';
import { Worker } from '../../../agents/worker/worker.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startDripServer, type DripServer } from '../../fixtures/hostile/drip.ts';
import { budget, scaler } from '../../helpers/budget.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { customer, target, targetServer, waitFor, type TargetServer } from '../../helpers/queue-support.ts';

let stack: RunningStack;
let normal: TargetServer;
let drip: DripServer;
const agents: Agent[] = [];
const service = () => createServiceClient(stack.url, stack.status.service_role_key);

beforeAll(async () => {
  stack = await startTestStack();
  normal = await targetServer();
  drip = await startDripServer({ everyMs: 1000, dripAll: true });
});
afterEach(async () => {
  // A test's agent goes with it: left polling, it would claim the next test's jobs. A failed test may
  // leave the hostile scan running: its worker is ended as a crash would end it.
  for (const a of agents.splice(0)) {
    a.worker.kill();
    await a.stop();
  }
});
afterAll(async () => {
  await drip.close();
  await normal.close();
  await stack.close();
});

const scanRow = async (id: string) =>
  (
    await stack.ctx.db.query<{ status: string; analyzed_results: Record<string, unknown> | null }>(
      'select status::text, analyzed_results from public.scan_results where id = $1',
      [id],
    )
  ).rows[0]!;

async function startScan(userId: string, targetId: string) {
  const { data: jobId, error } = await service().rpc('enqueue_scan', {
    p_user: userId,
    p_tool: 'webapp' as never,
    p_target_id: targetId,
    p_scanner: 'webapp',
  });
  expect(error).toBeNull();
  const { rows } = await stack.ctx.db.query<{ id: string }>(
    'select id from public.scan_results where job_id = $1',
    [jobId],
  );
  return { jobId: jobId!, scanId: rows[0]!.id };
}

const done = (scanId: string, timeoutMs = 90_000) =>
  waitFor(
    'scan finished',
    async () => {
      const row = await scanRow(scanId);
      return row.analyzed_results ? { ...row, at: Date.now() } : null;
    },
    timeoutMs,
    50,
  );

describe('a worker scanning a hostile target', () => {
  // Three scans, each in a process of its own: about 10 s on a quiet machine.
  it(
    'finishes a normal scan beside it, and takes a cancel of the hostile one within 2 s',
    { timeout: budget(10_000) },
    async () => {
      // Two customers: one scan of a type runs at a time per customer.
      const gina = await customer(stack);
      const ivan = await customer(stack);
      const hostile = await target(stack, gina.id, drip.url);
      const benign = await target(stack, ivan.id, normal.url);
      agents.push(
        startAgent({
          db: service(),
          mode: 'local',
          concurrency: 2,
          heartbeatMs: 300,
          pollMs: 50,
          dutyMs: 3_600_000,
          log: () => {},
        }),
      );
      // The baseline: the same normal scan with the worker to itself.
      const alone = await startScan(ivan.id, benign.id);
      const aloneStarted = Date.now();
      const aloneDone = await done(alone.scanId);
      const aloneMs = aloneDone.at - aloneStarted;

      const stuck = await startScan(gina.id, hostile.id);
      await waitFor('hostile scan connected', () => Promise.resolve(drip.open() > 0), 30_000, 50);
      const beside = await startScan(ivan.id, benign.id);
      const besideStarted = Date.now();
      const besideDone = await done(beside.scanId);
      expect(besideDone.status).toBe('completed');
      expect(besideDone.analyzed_results).toMatchObject({ partial: false });
      // On time: not held up by the hostile scan (a loaded machine gets a generous factor, not a race).
      expect(besideDone.at - besideStarted).toBeLessThan(Math.max(3 * aloneMs, aloneMs + 20_000));
      // The hostile scan is still running, holding connections to its target.
      expect((await scanRow(stuck.scanId)).status).toBe('in_progress');
      expect(drip.open()).toBeGreaterThan(0);

      const within = scaler();
      const cancelledAt = Date.now();
      await new Queue(service()).cancel(stuck.jobId);
      const stopped = await done(stuck.scanId, within(3_000));
      expect(stopped.status).toBe('stopped');
      expect(stopped.analyzed_results).toMatchObject({ partial: true, stopped: { reason: 'cancelled' } });
      // Taken within 2 s (the heartbeat that brings the cancel, the scan's stop, its results written); a
      // loaded machine gets its measured slowness on top, still far from the scan's own end (never: the
      // target drips for ever) or its time limit (minutes).
      expect(stopped.at - cancelledAt).toBeLessThan(within(1000));
      await expect.poll(() => drip.open(), { timeout: within(1000) }).toBe(0);
    },
  );

  // The job's limit and the worker's 10 s of grace, then its bookkeeping: about 11 s on a quiet machine.
  it(
    'takes back the slot of a job that outruns its time limit and ignores the abort',
    { timeout: budget(12_000) },
    async () => {
      const worker = new Worker({
        db: service(),
        mode: 'local',
        id: 'limited',
        concurrency: 1,
        heartbeatMs: 200,
        pollMs: 50,
        // A handler deaf to its signal: only the worker's backstop can end it.
        handlers: { verify: () => new Promise(() => undefined) },
        timeLimitMs: () => 500,
        log: () => {},
      });
      const hana = await customer(stack);
      const t = await target(stack, hana.id, normal.url, { verified: false });
      const { rows: queued } = await stack.ctx.db.query<{ id: string }>(
        `insert into public.jobs (user_id, kind, payload) values ($1, 'verify', $2) returning id`,
        [hana.id, JSON.stringify({ target_id: t.id, tool_type: 'webapp' })],
      );
      const jobId = queued[0]!.id;
      expect(jobId).toBeTruthy();
      const within = scaler();
      const before = Date.now();
      expect(await worker.runOnce()).toBe(1);
      // Its limit, and the grace the worker gives an aborted job (10 s), not forever (the handler never ends);
      // the rest is the worker's own bookkeeping, slower on a loaded machine.
      expect(Date.now() - before).toBeLessThan(500 + 10_000 + within(1_700));
      const { rows } = await stack.ctx.db.query<{ status: string; last_error: string }>(
        'select status, last_error from public.jobs where id = $1',
        [jobId],
      );
      expect(rows[0]).toEqual({ status: 'dead', last_error: 'the job ran past its time limit of 500 ms' });
    },
  );
});
