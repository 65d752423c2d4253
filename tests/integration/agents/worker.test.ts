// The agent worker on real scans: a stop heard at the next heartbeat, after which the scan starts no new
// request and keeps what it found; a stalled scan retried by another worker, hosted mode refusing loopback
// targets, unverified targets refused, and the target's rate limit as the target sees it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../agents/queue/client.ts';
import { startAgent, type Agent } from '../../../agents/worker/agent.ts';
import { runScanJob } from '../../../agents/worker/scan-job.ts';
import { Worker } from '../../../agents/worker/worker.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { Queue } from '../../../agents/queue/queue.ts';
import { countingProxy, mostInWindow } from '../../fixtures/counting-proxy.ts';
import {
  customer,
  initialised,
  target,
  targetServer,
  waitFor,
  type TargetServer,
} from '../../helpers/queue-support.ts';

let stack: RunningStack;
let srv: TargetServer;
const agents: Agent[] = [];
const service = () => createServiceClient(stack.url, stack.status.service_role_key);
const agent = (
  mode: 'local' | 'hosted',
  extra: Parameters<typeof startAgent>[0] extends infer O ? Partial<O> : never = {},
) => {
  const a = startAgent({ db: service(), mode, pollMs: 100, dutyMs: 3_600_000, log: () => {}, ...extra });
  agents.push(a);
  return a;
};

beforeAll(async () => {
  stack = await startTestStack();
  srv = await targetServer();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  srv.delayMs = 0;
});
afterAll(async () => {
  await srv.close();
  await stack.close();
});

const scanRow = async (id: string) =>
  (
    await stack.ctx.db.query<{
      status: string;
      progress: Record<string, unknown>;
      analyzed_results: Record<string, unknown> | null;
      error_message: string | null;
    }>(
      'select status::text, progress, analyzed_results, error_message from public.scan_results where id = $1',
      [id],
    )
  ).rows[0]!;

async function startScan(userId: string, targetId: string, tool = 'webapp', scanner = 'webapp') {
  const { data: jobId, error } = await service().rpc('enqueue_scan', {
    p_user: userId,
    p_tool: tool as never,
    p_target_id: targetId,
    p_scanner: scanner,
  });
  expect(error).toBeNull();
  const { rows } = await stack.ctx.db.query<{ id: string }>(
    'select id from public.scan_results where job_id = $1',
    [jobId],
  );
  return { jobId: jobId!, scanId: rows[0]!.id };
}

describe('agent worker', () => {
  it('stops a running scan at its next heartbeat: no new request after the scan hears it, findings kept', async () => {
    const alice = await customer(stack);
    const t = await target(stack, alice.id, srv.url);
    expect(t.id).toBeTruthy();
    await initialised(stack, alice.id, 'webapp');
    srv.delayMs = 150;
    srv.mostPending = 0;
    // What the target had received when the worker saw the cancel at a heartbeat, and when the scan heard
    // the stop (from then on it starts nothing; only requests it had already sent may still arrive).
    const seen: { cancelled?: number; heard?: number } = {};
    agent('local', {
      heartbeatMs: 500,
      log: (line: string) => {
        if (/: cancelled at a heartbeat, stopping it$/.test(line)) {
          seen.cancelled ??= srv.requests;
        }
        if (/the scan heard the stop \(cancelled\)/.test(line)) {
          seen.heard ??= srv.requests;
        }
      },
    });
    const { data: started, error: startError } = (await alice.supabase.functions.invoke<
      Record<string, unknown>
    >('security-scanner-integration', {
      body: { action: 'start_scan', toolType: 'webapp', continuous: false },
    })) as { data: Record<string, unknown> | null; error: unknown };
    expect(startError ? await (startError as { context: Response }).context.text() : null).toBeNull();
    const scanId = (started as { scanId: string }).scanId;
    // Honest progress while it runs: a phase past the first, a percentage, a request rate.
    const running = await waitFor(
      'scan under way',
      async () => {
        const row = await scanRow(scanId);
        return row.progress.phase &&
          !['queued', 'starting', 'transport'].includes(row.progress.phase as string)
          ? row
          : null;
      },
      20_000,
      50,
    );
    expect(running.status).toBe('in_progress');
    expect(typeof running.progress.percent).toBe('number');
    expect(typeof running.progress.requestsPerSecond).toBe('number');
    const { data: stop, error } = (await alice.supabase.functions.invoke<Record<string, unknown>>(
      'security-scanner-integration',
      { body: { action: 'stop_scan', toolType: 'webapp' } },
    )) as { data: Record<string, unknown> | null; error: unknown };
    expect(error).toBeNull();
    expect(stop).toEqual({ success: true, message: 'Scan stopped' });
    // The scan shows stopped as soon as the call returns.
    expect((await scanRow(scanId)).status).toBe('stopped');
    // The worker notices at its next heartbeat, stops the scanner and records what it found so far.
    const stopped = await waitFor(
      'findings so far recorded',
      async () => {
        const row = await scanRow(scanId);
        return row.analyzed_results ? row : null;
      },
      20_000,
      50,
    );
    expect(stopped.status).toBe('stopped');
    expect(stopped.analyzed_results).toMatchObject({ partial: true });
    // Counted, not timed (a loaded machine delays every step, never the order): after the scan heard the
    // stop, only requests it had already sent reached the target, no more than it keeps under way at once
    // (a scan that went on sending until it was killed sends several rounds of them).
    expect(seen.cancelled).toBeTypeOf('number');
    expect(seen.heard).toBeTypeOf('number');
    expect(srv.requests - seen.heard!).toBeLessThanOrEqual(srv.mostPending);
    const { data: kept } = await alice.supabase.from('findings').select('rule_id, status');
    expect(kept!.some((f) => f.rule_id === 'web.transport.cleartext' && f.status === 'open')).toBe(true);
  });

  it('retries a scan whose worker went silent on another worker', async () => {
    const bob = await customer(stack);
    const t = await target(stack, bob.id, srv.url);
    srv.delayMs = 100;
    const silent = new Worker({
      db: service(),
      mode: 'local',
      id: 'silent',
      handlers: { scan: runScanJob },
      leaseSeconds: 1,
      heartbeatMs: 300,
      pollMs: 50,
      log: () => {},
    });
    silent.start();
    const { jobId, scanId } = await startScan(bob.id, t.id);
    await waitFor('first worker scanning', async () => (await scanRow(scanId)).progress.phase !== 'queued');
    silent.kill();
    srv.delayMs = 0;
    agent('local');
    const done = await waitFor(
      'scan completed by the second worker',
      async () => {
        const row = await scanRow(scanId);
        return row.status === 'completed' ? row : null;
      },
      30_000,
      100,
    );
    expect(done.analyzed_results).toMatchObject({ partial: false });
    const job = await waitFor('job succeeded', async () => {
      const { rows } = await stack.ctx.db.query<{ attempts: number; locked_by: string; status: string }>(
        'select attempts, locked_by, status from public.jobs where id = $1',
        [jobId],
      );
      return rows[0]!.status === 'succeeded' ? rows[0]! : null;
    });
    expect(job.attempts).toBe(2);
    expect(job.locked_by).not.toBe('silent');
  });

  it('refuses loopback targets in hosted mode (no request reaches them)', async () => {
    const carol = await customer(stack);
    const t = await target(stack, carol.id, srv.url);
    agent('hosted');
    const before = srv.requests;
    const { jobId, scanId } = await startScan(carol.id, t.id);
    const failed = await waitFor('scan refused', async () => {
      const row = await scanRow(scanId);
      return row.status === 'failed' ? row : null;
    });
    expect(failed.error_message).toMatch(/cannot be scanned.*loopback/);
    expect(srv.requests).toBe(before);
    const job = await waitFor('job dead-lettered', async () => {
      const { rows } = await stack.ctx.db.query<{ status: string; attempts: number }>(
        'select status, attempts from public.jobs where id = $1',
        [jobId],
      );
      return rows[0]!.status === 'dead' ? rows[0]! : null;
    });
    expect(job.attempts).toBe(1);
  });

  it('refuses a target whose verification was withdrawn before the scan ran', async () => {
    const dave = await customer(stack);
    const t = await target(stack, dave.id, srv.url);
    const { scanId } = await startScan(dave.id, t.id);
    await stack.ctx.db.query(
      'update public.scan_targets set verified_at = null, verification_method = null where id = $1',
      [t.id],
    );
    const before = srv.requests;
    agent('local');
    const failed = await waitFor('scan refused', async () => {
      const row = await scanRow(scanId);
      return row.status === 'failed' ? row : null;
    });
    expect(failed.error_message).toMatch(/not verified/);
    expect(srv.requests).toBe(before);
  });

  it('scans only the ports a test opened (infrastructure, explicit port list) and records the service', async () => {
    const erin = await customer(stack);
    const t = await target(stack, erin.id, '127.0.0.1', { kind: 'host' });
    const { data: jobId } = await service().rpc('enqueue_scan', {
      p_user: erin.id,
      p_tool: 'siem',
      p_target_id: t.id,
      p_scanner: 'infrastructure',
      p_options: { ports: String(srv.port) },
    });
    agent('local');
    const { rows } = await stack.ctx.db.query<{ id: string }>(
      'select id from public.scan_results where job_id = $1',
      [jobId],
    );
    const done = await waitFor(
      'infrastructure scan',
      async () => {
        const row = await scanRow(rows[0]!.id);
        return row.status === 'completed' || row.status === 'failed' ? row : null;
      },
      30_000,
    );
    expect(done.status).toBe('completed');
    const { data: found } = await erin.supabase.from('findings').select('rule_id, location, scanner');
    expect(found!.length).toBeGreaterThan(0);
    expect(found!.every((f) => f.scanner === 'infrastructure' && f.location.includes(String(srv.port)))).toBe(
      true,
    );
  });

  it("keeps a scan within the target's rate limit, shared among its concurrent scans", async () => {
    const frank = await customer(stack);
    const proxy = await countingProxy(srv.url);
    try {
      const t = await target(stack, frank.id, proxy.target);
      // 8 requests/s for the target, up to 2 scans at once: each scan may send 4 a second.
      await stack.ctx.db.query(
        'update public.scan_targets set rate_limit = 8, max_concurrent_scans = 2 where id = $1',
        [t.id],
      );
      agent('local', { heartbeatMs: 300 });
      const { jobId, scanId } = await startScan(frank.id, t.id);
      // Four seconds' worth: long enough to tell 4 a second from 5.
      await waitFor('requests under way', () => Promise.resolve(proxy.arrivals.length >= 16), 30_000, 50);
      await new Queue(service()).cancel(jobId);
      await waitFor('scan recorded', async () => (await scanRow(scanId)).analyzed_results, 20_000, 50);
      // As the target saw them (the proxy runs in a process of its own, so a stall of this one cannot
      // bunch them): 4 a second, give or take what a loaded machine holds a request up on its way...
      expect(proxy.peak(1000)).toBeLessThanOrEqual(mostInWindow(4, 1000));
      expect(proxy.peak(3000)).toBeLessThanOrEqual(mostInWindow(4, 3000));
      // ...and 16 requests at 4 a second take at least (16 - 1) / 4 s from first to last, less that delay.
      const sorted = [...proxy.arrivals].sort((a, b) => a - b);
      expect(sorted[15]! - sorted[0]!).toBeGreaterThanOrEqual(3750 - 300);
    } finally {
      await proxy.close();
    }
  });
});
