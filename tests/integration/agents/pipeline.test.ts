// End to end: a customer proves ownership of a deliberately vulnerable server on 127.0.0.1, scans it
// through the edge function, and an in-process agent worker turns the scanner's findings into findings,
// scan_results, security events, recommendations and an alert e-mail; a rescan after the fix marks the
// findings fixed and resolves the events; a relapse reopens them as regressions.
import type { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../agents/queue/client.ts';
import { startAgent, type Agent } from '../../../agents/worker/agent.ts';
import { listMail } from '../../../server/mail/outbox.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import {
  customer,
  target,
  targetServer,
  waitFor,
  type Customer,
  type TargetServer,
} from '../../helpers/queue-support.ts';

let stack: RunningStack;
let agent: Agent;
let srv: TargetServer;
let alice: Customer;

beforeAll(async () => {
  stack = await startTestStack();
  srv = await targetServer();
  agent = startAgent({
    db: createServiceClient(stack.url, stack.status.service_role_key),
    mode: 'local',
    mail: stack.ctx.mailer,
    pollMs: 100,
    dutyMs: 500,
    log: () => {},
  });
  alice = await customer(stack);
  // The agent closes the alerts of fixed findings only with automatic remediation on (docs/product.md §11; off is
  // covered by tests/integration/agents/remediation.test.ts).
  await alice.supabase.from('user_settings').update({ automatic_remediation: true }).eq('user_id', alice.id);
});
afterAll(async () => {
  await agent.stop();
  await srv.close();
  await stack.close();
});

async function act(body: Record<string, unknown>) {
  const { data, error } = (await alice.supabase.functions.invoke<Record<string, unknown>>(
    'security-scanner-integration',
    { body },
  )) as { data: Record<string, unknown> | null; error: unknown };
  if (error) {
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data as Record<string, unknown> };
}

async function scanToEnd(target?: string) {
  const started = await act({
    action: 'start_scan',
    toolType: 'webapp',
    continuous: false,
    ...(target ? { target } : {}),
  });
  expect(started).toMatchObject({ status: 200, body: { success: true, message: 'Scan started' } });
  const id = started.body.scanId as string;
  const scan = await waitFor(
    'scan completed',
    async () => {
      const { data } = await alice.supabase.from('scan_results').select('*').eq('id', id).single();
      return data?.status === 'completed' || data?.status === 'failed' ? data : null;
    },
    60_000,
    200,
  );
  // The job ends once insights, recommendations and notifications are written too.
  await waitFor('job finished', async () => {
    const { data } = await alice.supabase
      .from('jobs')
      .select('status')
      .eq('id', started.body.jobId as string)
      .single();
    return data?.status === 'succeeded';
  });
  return scan;
}

const findings = async () => (await alice.supabase.from('findings').select('*').order('rule_id')).data!;

describe('findings pipeline', () => {
  it('adds and verifies a target; the customer cannot mark it verified', async () => {
    const { data: t, error } = await alice.supabase
      .from('scan_targets')
      // The customer's highest rate (100/s): each of this suite's scans is ~150 requests; pacing has its own tests.
      .insert({ kind: 'url', value: srv.url, rate_limit: 100 })
      .select()
      .single();
    expect(error).toBeNull();
    expect(t!.verified_at).toBeNull();
    const { error: forged } = await alice.supabase
      .from('scan_targets')
      .update({ verified_at: new Date().toISOString() } as never)
      .eq('id', t!.id);
    expect(forged?.code).toBe('42501');
    expect(await act({ action: 'verify_target', toolType: 'webapp', target: srv.url })).toMatchObject({
      status: 422,
    });
    srv.token = t!.verification_token;
    expect(await act({ action: 'verify_target', toolType: 'webapp', target: srv.url })).toMatchObject({
      status: 200,
      body: { success: true, verified: true },
    });
    expect(await act({ action: 'initialize', toolType: 'webapp' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
  });

  it('scans, stores deduplicated findings, opens an event for the high finding and recommends the fix', async () => {
    const scan = await scanToEnd();
    expect(scan.status).toBe('completed');
    expect(scan.severity_level).toBe('critical');
    const results = scan.analyzed_results as {
      counts: Record<string, number>;
      finding_ids: string[];
      total: number;
      new: number;
    };
    expect(results.counts.critical).toBeGreaterThanOrEqual(1);
    expect(results.counts.high).toBeGreaterThanOrEqual(1);
    expect(results.finding_ids).toHaveLength(results.total);
    expect(results.new).toBe(results.total);
    expect(scan.progress as { phase: string; percent: number }).toMatchObject({
      phase: 'done',
      percent: 100,
    });

    const all = await findings();
    const git = all.find((f) => f.rule_id === 'web.exposed.git')!;
    const env = all.find((f) => f.rule_id === 'web.exposed.env')!;
    expect(git).toMatchObject({ severity: 'high', status: 'open', regression: false, cwe: 'CWE-527' });
    expect(env).toMatchObject({ severity: 'critical', status: 'open' });
    expect(git.location).toBe(`${srv.url}/.git/HEAD`);
    expect(all.map((f) => f.id).sort()).toEqual([...results.finding_ids].sort());

    const { data: events } = await alice.supabase.from('security_events').select('*').eq('status', 'open');
    const gitEvent = events!.find((e) => e.finding_id === git.id)!;
    expect(gitEvent).toMatchObject({
      severity: 'high',
      event_type: 'vulnerability_detected',
      scan_result_id: scan.id,
    });
    expect(events!.some((e) => e.finding_id === env.id && e.severity === 'critical')).toBe(true);
    // Low findings (missing headers) do not raise alerts.
    expect(events!.every((e) => e.severity === 'high' || e.severity === 'critical')).toBe(true);

    // Recommendations follow the scan row (analysis runs after the scan is shown complete).
    const recs = await waitFor('recommendations', async () => {
      const { data } = await alice.supabase
        .from('ai_security_recommendations')
        .select('*')
        .eq('status', 'pending');
      return data?.some((r) => r.category === 'exposed-sensitive-files') ? data : null;
    });
    const files = recs.find((r) => r.category === 'exposed-sensitive-files')!;
    expect(files).toMatchObject({ priority: 'high', finding_id: env.id });
    expect(JSON.stringify(files.steps)).toContain('nginx');
    expect(recs.some((r) => r.category === 'security-headers')).toBe(true);

    const mail = await waitFor(
      'alert e-mail',
      async () =>
        (await listMail(stack.ctx.db, alice.email)).find((m) => m.subject.includes('security alert')),
      10_000,
    );
    expect(mail.text).toContain('Environment file');
  });

  it('a second scan is deduplicated: nothing new, no second event', async () => {
    const before = await findings();
    const scan = await scanToEnd();
    expect((scan.analyzed_results as { new: number }).new).toBe(0);
    const after = await findings();
    expect(after.map((f) => f.id)).toEqual(before.map((f) => f.id));
    const { data: events } = await alice.supabase
      .from('security_events')
      .select('id')
      .eq('event_type', 'vulnerability_detected');
    expect(events!.length).toBe(
      before.filter((f) => f.severity === 'high' || f.severity === 'critical').length,
    );
  });

  it('lets the customer triage but never close a finding by hand', async () => {
    const git = (await findings()).find((f) => f.rule_id === 'web.exposed.git')!;
    const { error: fixedByHand } = await alice.supabase
      .from('findings')
      .update({ status: 'fixed' })
      .eq('id', git.id);
    expect(fixedByHand).not.toBeNull();
    const { error: noExpiry } = await alice.supabase
      .from('findings')
      .update({ status: 'accepted_risk' })
      .eq('id', git.id);
    expect(noExpiry).not.toBeNull();
    const { error: otherColumn } = await alice.supabase
      .from('findings')
      .update({ severity: 'low' } as never)
      .eq('id', git.id);
    expect(otherColumn?.code).toBe('42501');
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const { error: accepted } = await alice.supabase
      .from('findings')
      .update({ status: 'accepted_risk', accepted_until: until })
      .eq('id', git.id);
    expect(accepted).toBeNull();
  });

  it('marks findings fixed when a retest no longer sees them, and resolves their events', async () => {
    srv.vulnerable = false;
    const scan = await scanToEnd();
    expect((scan.analyzed_results as { fixed: number }).fixed).toBeGreaterThanOrEqual(2);
    const all = await findings();
    for (const rule of ['web.exposed.git', 'web.exposed.env']) {
      const f = all.find((x) => x.rule_id === rule)!;
      expect(f.status).toBe('fixed');
      expect(f.fixed_at).not.toBeNull();
    }
    expect(all.find((f) => f.rule_id === 'web.header.csp-missing')?.status).toBe('open');
    const { data: events } = await alice.supabase
      .from('security_events')
      .select('status, finding_id')
      .in(
        'finding_id',
        all.filter((f) => f.status === 'fixed').map((f) => f.id),
      );
    expect(events!.length).toBeGreaterThan(0);
    expect(events!.every((e) => e.status === 'resolved')).toBe(true);
    const { data: recs } = await alice.supabase
      .from('ai_security_recommendations')
      .select('category, status')
      .eq('category', 'exposed-sensitive-files');
    expect(recs!.every((r) => r.status === 'completed')).toBe(true);
  });

  it('reopens a fixed finding that returns as a regression', async () => {
    srv.vulnerable = true;
    const scan = await scanToEnd();
    expect((scan.analyzed_results as { regressed: number }).regressed).toBeGreaterThanOrEqual(2);
    const git = (await findings()).find((f) => f.rule_id === 'web.exposed.git')!;
    expect(git).toMatchObject({ status: 'open', regression: true, reopened_count: 1, fixed_at: null });
    const { data: events } = await alice.supabase
      .from('security_events')
      .select('event_type, status')
      .eq('finding_id', git.id)
      .eq('status', 'open');
    expect(events).toEqual([{ event_type: 'vulnerability_regression', status: 'open' }]);
  });

  it("learns from the customer's history: one misconfiguration on several targets is a pattern", async () => {
    const second = await targetServer();
    try {
      const t = await target(stack, alice.id, second.url);
      const scan = await scanToEnd(t.id);
      expect(scan.status).toBe('completed');
      const { data: insights } = await alice.supabase
        .from('ml_insights')
        .select('*')
        .order('created_at', { ascending: false })
        .limit(5);
      const pattern = insights!.find(
        (i) => i.insight_type === 'pattern' && (i.data as { rule_id?: string }).rule_id === 'web.exposed.git',
      )!;
      expect(pattern.title).toBe('Same misconfiguration on several targets');
      expect(pattern.confidence_score).toBe(1);
      expect(pattern.description).toContain('2 of your 2 targets');
      const { data: recs } = await alice.supabase
        .from('ai_security_recommendations')
        .select('category, description')
        .eq('status', 'pending')
        .eq('category', 'exposed-sensitive-files');
      expect(recs).toHaveLength(1);
      expect(recs![0]!.description).toContain('on 2 targets');
    } finally {
      await second.close();
    }
  });
});
