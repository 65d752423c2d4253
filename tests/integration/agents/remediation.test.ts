// Automatic remediation (docs/product.md §11) against the real stack, a real agent and real loopback target servers:
// with the setting on the agent closes what a rescan no longer sees (and says who, when and why); with it
// off nothing closes by itself; what is still there stays open; a recommendation marked implemented is
// verified by a rescan the agents queue only when the setting is on; nobody acts on another's rows.
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../agents/queue/client.ts';
import { startAgent, type Agent } from '../../../agents/worker/agent.ts';
import type { RunningStack } from '../../../server/stack.ts';
import type { Database } from '../../../shared/database.types.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { customer, waitFor, type Customer } from '../../helpers/queue-support.ts';
import {
  eventsOf,
  findingByRule,
  jobDone,
  owner,
  recommendationOf,
  scanToEnd,
  serviceDb,
  verificationJobs,
  type Owner,
} from '../../helpers/remediation-support.ts';

const FILES = 'exposed-sensitive-files';
const HEADERS = 'security-headers';
const SCAN_LABEL = /^the scan of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/;

let stack: RunningStack;
let db: ServiceClient;
let agent: Agent;
let on: Owner;
let off: Owner;
let bob: Customer;
const owners: Owner[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  db = serviceDb(stack);
  agent = startAgent({ db: serviceDb(stack), mode: 'local', pollMs: 100, dutyMs: 200, log: () => {} });
  on = await owner(stack, true);
  off = await owner(stack, false);
  owners.push(on, off);
  bob = await customer(stack);
});
afterAll(async () => {
  await agent.stop();
  await Promise.all(owners.map((o) => o.srv.close()));
  await stack.close();
});

describe('automatic remediation: the agents verify and close fixed findings', () => {
  it('setting on: a rescan that no longer sees a finding closes its alert and completes its recommendation', async () => {
    await scanToEnd(db, on);
    const git = await findingByRule(on, 'web.exposed.git');
    expect((await eventsOf(on)).find((e) => e.finding_id === git.id)).toMatchObject({ status: 'open' });
    expect(await recommendationOf(on, FILES)).toMatchObject({ status: 'pending' });

    on.srv.vulnerable = false;
    const rescan = await scanToEnd(db, on);
    const fixedIds = (rescan.analyzed_results as { fixed_finding_ids: string[] }).fixed_finding_ids;
    expect(fixedIds).toContain(git.id);
    const closed = (await eventsOf(on)).filter((e) => fixedIds.includes(e.finding_id!));
    expect(closed.length).toBeGreaterThanOrEqual(2);
    for (const e of closed) {
      expect(e).toMatchObject({ status: 'resolved', resolved_by: 'agent' });
      expect(e.resolved_at).not.toBeNull();
      expect(e.resolution!.replace('Verified fixed by ', '')).toMatch(SCAN_LABEL);
    }
    const files = await recommendationOf(on, FILES);
    expect(files).toMatchObject({ status: 'completed', completed_by: 'agent' });
    expect(files.completed_at).not.toBeNull();
    expect(files.resolution!.replace('Verified fixed by ', '')).toMatch(SCAN_LABEL);
  });

  it('setting on: a finding the rescan still sees stays open, and so does its recommendation', async () => {
    const csp = await findingByRule(on, 'web.header.csp-missing');
    expect(csp.status).toBe('open');
    expect(await recommendationOf(on, HEADERS)).toMatchObject({ status: 'pending', completed_by: null });
  });

  it('setting off: nothing is closed automatically; the alert notes the scan and the customer resolves it', async () => {
    await scanToEnd(db, off);
    off.srv.vulnerable = false;
    const rescan = await scanToEnd(db, off);
    const git = await findingByRule(off, 'web.exposed.git');
    // The finding records what the scan saw; closing the alert is the customer's call.
    expect(git.status).toBe('fixed');
    const event = (await eventsOf(off)).find((e) => e.finding_id === git.id)!;
    expect(event).toMatchObject({ status: 'open', resolved_by: null, resolved_at: null, resolution: null });
    expect(event.details).toMatchObject({ no_longer_seen_by_scan: rescan.id });
    expect(await recommendationOf(off, FILES)).toMatchObject({ status: 'pending', completed_by: null });

    const { error } = await off.who.supabase.rpc('resolve_security_event', { p_event: event.id });
    expect(error).toBeNull();
    expect((await eventsOf(off)).find((e) => e.id === event.id)).toMatchObject({
      status: 'resolved',
      resolved_by: 'user',
      resolution: 'Resolved by you',
    });
  });

  it('an alert the customer resolved by hand is reopened when a scan still sees its finding', async () => {
    off.srv.vulnerable = true;
    await scanToEnd(db, off);
    const env = await findingByRule(off, 'web.exposed.env');
    const open = (await eventsOf(off)).filter((e) => e.finding_id === env.id && e.status === 'open');
    expect(open).toHaveLength(1);
    const { error } = await off.who.supabase.rpc('resolve_security_event', { p_event: open[0]!.id });
    expect(error).toBeNull();
    await scanToEnd(db, off);
    const again = (await eventsOf(off)).find((e) => e.id === open[0]!.id)!;
    expect(again).toMatchObject({ status: 'open', resolved_by: null, resolved_at: null });
    expect(again.resolution).toMatch(/^Reopened: the scan of .+ still sees it$/);
  });

  it('setting off: marking a recommendation implemented closes it by the customer and queues no rescan', async () => {
    const files = await recommendationOf(off, FILES);
    expect(files.status).toBe('pending');
    const { data, error } = await off.who.supabase.rpc('mark_recommendation_implemented', {
      p_recommendation: files.id,
    });
    expect(error).toBeNull();
    expect(data).toBe('completed');
    const after = await recommendationOf(off, FILES);
    expect(after).toMatchObject({
      status: 'completed',
      completed_by: 'user',
      resolution: 'Marked implemented by you',
    });
    expect(after.implemented_at).not.toBeNull();
    // Several agent duty ticks (every 200 ms) pass without a verification scan.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await verificationJobs(db, off.who.id)).toEqual([]);
  });
});

describe('automatic remediation: verification rescans of implemented recommendations', () => {
  it('setting on: a recommendation marked implemented but not fixed is rescanned and stays open', async () => {
    on.srv.vulnerable = true;
    await scanToEnd(db, on);
    const files = await recommendationOf(on, FILES);
    expect(files.status).toBe('pending');
    const { data, error } = await on.who.supabase.rpc('mark_recommendation_implemented', {
      p_recommendation: files.id,
    });
    expect(error).toBeNull();
    expect(data).toBe('in_progress');
    const jobs = await waitFor('a verification scan', async () => {
      const found = await verificationJobs(db, on.who.id);
      return found.length ? found : null;
    });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.payload).toMatchObject({
      target_id: on.targetId,
      scanner: 'webapp',
      trigger: 'verification',
    });
    await jobDone(db, jobs[0]!.id);
    const kept = await recommendationOf(on, FILES);
    expect(kept.id).toBe(files.id);
    expect(kept).toMatchObject({ status: 'pending', verification_requested_at: null });
    expect(kept.resolution).toMatch(/^Not fixed yet: the scan of .+ still sees it$/);
    expect((await findingByRule(on, 'web.exposed.git')).status).toBe('open');
  });

  it('setting on: once really fixed, the verification rescan closes the recommendation and its alerts', async () => {
    on.srv.vulnerable = false;
    const files = await recommendationOf(on, FILES);
    const before = (await verificationJobs(db, on.who.id)).map((j) => j.id);
    const { error } = await on.who.supabase.rpc('mark_recommendation_implemented', {
      p_recommendation: files.id,
    });
    expect(error).toBeNull();
    const job = await waitFor('a second verification scan', async () =>
      (await verificationJobs(db, on.who.id)).find((j) => !before.includes(j.id)),
    );
    await jobDone(db, job.id);
    const closed = await recommendationOf(on, FILES);
    expect(closed).toMatchObject({ id: files.id, status: 'completed', completed_by: 'agent' });
    expect(closed.resolution).toMatch(/^Verified fixed by the scan of /);
    const git = await findingByRule(on, 'web.exposed.git');
    expect(git.status).toBe('fixed');
    const events = (await eventsOf(on)).filter((e) => e.finding_id === git.id);
    expect(events.every((e) => e.status === 'resolved' && e.resolved_by === 'agent')).toBe(true);
  });
});

describe('automatic remediation: only the owner acts on its rows', () => {
  it("another customer can neither mark nor trigger a verification of someone else's recommendation", async () => {
    const headers = await recommendationOf(on, HEADERS);
    const jobsBefore = (await verificationJobs(db, on.who.id)).length;
    const { error } = await bob.supabase.rpc('mark_recommendation_implemented', {
      p_recommendation: headers.id,
    });
    expect(error).not.toBeNull();
    expect(error!.message).toContain('recommendation not found');
    await new Promise((r) => setTimeout(r, 800));
    expect(await recommendationOf(on, HEADERS)).toMatchObject({ status: 'pending', implemented_at: null });
    expect(await verificationJobs(db, on.who.id)).toHaveLength(jobsBefore);
  });

  it("another customer cannot resolve someone else's alert", async () => {
    const open = (await eventsOf(off)).find((e) => e.status === 'open')!;
    const { error } = await bob.supabase.rpc('resolve_security_event', { p_event: open.id });
    expect(error).not.toBeNull();
    expect((await eventsOf(off)).find((e) => e.id === open.id)!.status).toBe('open');
  });

  it('visitors cannot call either function; customers cannot write recommendations or alerts directly', async () => {
    const anon = createClient<Database>(stack.url, stack.status.anon_key, {
      auth: { persistSession: false },
    });
    const headers = await recommendationOf(on, HEADERS);
    const { error: anonMark } = await anon.rpc('mark_recommendation_implemented', {
      p_recommendation: headers.id,
    });
    expect(anonMark).not.toBeNull();
    const { error: anonResolve } = await anon.rpc('resolve_security_event', { p_event: crypto.randomUUID() });
    expect(anonResolve).not.toBeNull();
    // The agent-only path stays agent-only: no direct status write, no ingest, no enqueue for a customer.
    const { error: direct } = await on.who.supabase
      .from('ai_security_recommendations')
      .update({ status: 'completed', completed_by: 'agent' })
      .eq('id', headers.id);
    expect(direct?.code).toBe('42501');
    const { error: directEvent } = await off.who.supabase
      .from('security_events')
      .update({ status: 'resolved', resolved_by: 'agent' })
      .eq('user_id', off.who.id);
    expect(directEvent?.code).toBe('42501');
    const { error: ingest } = await on.who.supabase.rpc('ingest_findings', {
      p_scan: crypto.randomUUID(),
      p_findings: [],
      p_complete: true,
    });
    expect(ingest).not.toBeNull();
    expect(await recommendationOf(on, HEADERS)).toMatchObject({ status: 'pending' });
  });

  it('a completed recommendation cannot be marked implemented again', async () => {
    const files = await recommendationOf(on, FILES);
    expect(files.status).toBe('completed');
    const { error } = await on.who.supabase.rpc('mark_recommendation_implemented', {
      p_recommendation: files.id,
    });
    expect(error?.message).toContain('only an open recommendation');
  });
});
