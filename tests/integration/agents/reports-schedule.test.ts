// Report schedules on the embedded stack: several schedulers ticking at once enqueue each period once,
// several workers generate it once, a disabled configuration is skipped, one-time runs once, and a
// changed schedule is recomputed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueDueReports } from '../../../agents/reports/scheduler.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { activateAgents } from '../../helpers/agents.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { reportWorker, seedFindings, service, typed } from '../../helpers/reports-support.ts';

let stack: RunningStack;
let carol: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  carol = await signedInUser(stack, 'carol-schedule@example.com', {
    full_name: 'Carol',
    company_name: 'Umbrella Ltd',
    industry_type: 'Technology',
  });
  // Reports are for customers with an agent (docs/product.md §14).
  await activateAgents(stack.ctx.db, carol.id, ['threat_intelligence']);
  await seedFindings(stack, carol.id, 5);
}, 60_000);
afterAll(async () => {
  await stack.close();
});

async function configuration(
  schedule_type: 'daily' | 'weekly' | 'monthly' | 'one_time',
  extra: { is_enabled?: boolean; time_zone?: string } = {},
) {
  const { data, error } = await typed(carol)
    .from('report_configurations')
    .insert({
      name: `${schedule_type} report`,
      report_type: 'vulnerability_scan',
      schedule_type,
      is_enabled: extra.is_enabled ?? true,
      time_zone: extra.time_zone ?? 'UTC',
    })
    .select('id, created_at')
    .single();
  expect(error).toBeNull();
  return data!;
}

const date = (v: string | Date | null) => (v === null ? null : new Date(v));
const reportsOf = async (configId: string) =>
  (
    await stack.ctx.db.query<{ id: string; status: string; period_start: string; period_end: string }>(
      'select id, status::text, period_start, period_end from public.generated_reports where configuration_id = $1 order by period_end',
      [configId],
    )
  ).rows.map((r) => ({ ...r, period_start: date(r.period_start)!, period_end: date(r.period_end)! }));
const configRow = async (id: string) => {
  const row = (
    await stack.ctx.db.query<{ next_run_at: string | null; last_run_at: string | null }>(
      'select next_run_at, last_run_at from public.report_configurations where id = $1',
      [id],
    )
  ).rows[0]!;
  return { next_run_at: date(row.next_run_at), last_run_at: date(row.last_run_at) };
};

describe('report schedules', () => {
  it('enqueues one report per period however many schedulers tick at once, and generates it once', async () => {
    const config = await configuration('daily', { time_zone: 'Europe/Berlin' });
    const now = new Date(new Date(config.created_at).getTime() + 60_000);
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => enqueueDueReports(service(stack), now)));
    expect(outcomes.reduce((n, o) => n + o.enqueued, 0)).toBe(1);
    expect(outcomes.flatMap((o) => o.errors)).toEqual([]);
    expect(await reportsOf(config.id)).toHaveLength(1);
    const row = await configRow(config.id);
    expect(row.last_run_at?.toISOString()).toBe(new Date(config.created_at).toISOString());
    expect(row.next_run_at?.getTime()).toBe(new Date(config.created_at).getTime() + 86_400_000);

    // Two workers race for the job: one generates it, the other finds nothing.
    const claimed = await Promise.all([
      reportWorker(stack, 'w1').runOnce(),
      reportWorker(stack, 'w2').runOnce(),
    ]);
    expect(claimed.sort()).toEqual([0, 1]);
    const [report] = await reportsOf(config.id);
    expect(report!.status).toBe('completed');
    expect(report!.period_end.getTime() - report!.period_start.getTime()).toBe(86_400_000);

    // Later the same day: nothing new. The next day: exactly one more, covering the day since.
    await enqueueDueReports(service(stack), new Date(now.getTime() + 3_600_000));
    expect(await reportsOf(config.id)).toHaveLength(1);
    const tomorrow = new Date(now.getTime() + 86_400_000);
    const next = await Promise.all([
      enqueueDueReports(service(stack), tomorrow),
      enqueueDueReports(service(stack), tomorrow),
    ]);
    expect(next[0].enqueued + next[1].enqueued).toBe(1);
    const reports = await reportsOf(config.id);
    expect(reports).toHaveLength(2);
    expect(reports[1]!.period_start.toISOString()).toBe(reports[0]!.period_end.toISOString());
  }, 60_000);

  it('skips disabled configurations and recomputes when one is enabled again', async () => {
    const config = await configuration('weekly', { is_enabled: false });
    const now = new Date(new Date(config.created_at).getTime() + 60_000);
    await enqueueDueReports(service(stack), now);
    expect(await reportsOf(config.id)).toHaveLength(0);
    const { error } = await typed(carol)
      .from('report_configurations')
      .update({ is_enabled: true })
      .eq('id', config.id);
    expect(error).toBeNull();
    await enqueueDueReports(service(stack), now);
    expect(await reportsOf(config.id)).toHaveLength(1);
  });

  it('runs a one-time configuration once', async () => {
    const config = await configuration('one_time');
    const now = new Date(new Date(config.created_at).getTime() + 1000);
    await enqueueDueReports(service(stack), now);
    await enqueueDueReports(service(stack), new Date(now.getTime() + 40 * 86_400_000));
    const reports = await reportsOf(config.id);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.period_end.getTime() - reports[0]!.period_start.getTime()).toBe(30 * 86_400_000);
    expect((await configRow(config.id)).next_run_at).toBeNull();
  });

  it('passes over the slots of a customer without an agent instead of retrying them every tick', async () => {
    const dave = await signedInUser(stack, 'dave-schedule@example.com');
    const { rows } = await stack.ctx.db.query<{ id: string; created_at: string }>(
      `insert into public.report_configurations (user_id, name, schedule_type) values ($1, 'Daily', 'daily')
       returning id, created_at`,
      [dave.id],
    );
    const config = rows[0]!;
    const now = new Date(new Date(config.created_at).getTime() + 60_000);
    const outcome = await enqueueDueReports(service(stack), now);
    expect(outcome).toMatchObject({ withoutAgent: 1, errors: [] });
    expect(await reportsOf(config.id)).toEqual([]);
    expect((await configRow(config.id)).next_run_at!.getTime()).toBeGreaterThan(now.getTime());
  });

  it("keeps next_run_at and last_run_at out of the customer's hands and rejects unknown time zones", async () => {
    const config = await configuration('monthly');
    const forged = await typed(carol)
      .from('report_configurations')
      .update({ next_run_at: '2000-01-01T00:00:00Z' } as never)
      .eq('id', config.id);
    expect(forged.error).not.toBeNull();
    const badZone = await typed(carol)
      .from('report_configurations')
      .insert({ name: 'x', time_zone: 'Mars/Olympus_Mons' })
      .select('id');
    expect(badZone.error?.code).toBe('23514');
  });
});
