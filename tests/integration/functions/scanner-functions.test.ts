// security-scanner-integration and security-tool-orchestration: authentication, acting only for the
// caller, the initialise-before-scan rule, verified targets only, the tool mapping and connectors that
// need the customer's own credentials. No worker runs here: jobs stay queued.
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { activateAgents } from '../../helpers/agents.ts';
import { customer, initialised, target, waitFor, type Customer } from '../../helpers/queue-support.ts';

let stack: RunningStack;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  stack = await startTestStack();
  alice = await customer(stack);
  bob = await customer(stack);
});
afterAll(() => stack.close());

type Caller = { functions: Customer['supabase']['functions'] };
async function call(who: Caller, name: string, body: Record<string, unknown>) {
  const { data, error } = (await who.functions.invoke<Record<string, unknown>>(name, { body })) as {
    data: Record<string, unknown> | null;
    error: unknown;
  };
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data as Record<string, unknown> };
}
const scanner = (who: Caller, body: Record<string, unknown>) =>
  call(who, 'security-scanner-integration', body);
const orchestrate = (who: Caller, body: Record<string, unknown>) =>
  call(who, 'security-tool-orchestration', body);

describe('scanner edge functions', () => {
  it('require a signed-in caller', async () => {
    for (const name of ['security-scanner-integration', 'security-tool-orchestration']) {
      const res = await call(client(stack), name, {
        action: 'initialize',
        toolType: 'webapp',
        userId: alice.id,
      });
      expect(res).toEqual({ status: 401, body: { error: 'You must be logged in to use security tools' } });
    }
  });

  it('refuse to start a scan before the scanner is initialised', async () => {
    await target(stack, alice.id, 'https://alice.example.com');
    const res = await scanner(alice.supabase, {
      action: 'start_scan',
      toolType: 'webapp',
      continuous: false,
    });
    expect(res).toEqual({
      status: 409,
      body: { error: 'Scanner is not initialized. Please initialize it first.' },
    });
  });

  it("initialise the caller's own scanner as connected", async () => {
    expect(await scanner(alice.supabase, { action: 'initialize', toolType: 'webapp' })).toEqual({
      status: 200,
      body: { success: true, message: 'Scanner initialized' },
    });
    const { data } = await alice.supabase
      .from('security_tool_configurations')
      .select('tool_type, enabled, connection_status')
      .eq('tool_type', 'webapp')
      .single();
    expect(data).toEqual({ tool_type: 'webapp', enabled: true, connection_status: 'connected' });
    expect((await bob.supabase.from('security_tool_configurations').select('id')).data).toEqual([]);
  });

  it('refuse unverified and foreign targets', async () => {
    await target(stack, alice.id, 'https://unproven.example.com', { verified: false });
    const bobs = await target(stack, bob.id, 'https://bob.example.com');
    const unverified = await scanner(alice.supabase, {
      action: 'start_scan',
      toolType: 'webapp',
      target: 'https://unproven.example.com',
    });
    expect(unverified.status).toBe(403);
    expect(unverified.body.error).toMatch(/not verified/);
    expect(
      (await scanner(alice.supabase, { action: 'start_scan', toolType: 'webapp', target: bobs.id })).status,
    ).toBe(404);
    expect(
      (await scanner(alice.supabase, { action: 'start_scan', toolType: 'webapp', continuous: true })).status,
    ).toBe(400);
    const { data } = await alice.supabase.from('scan_results').select('id');
    expect(data).toEqual([]);
  });

  it('start a scan (scan_results in progress plus a queued job), refuse a second, and stop it', async () => {
    const started = await scanner(alice.supabase, {
      action: 'start_scan',
      toolType: 'webapp',
      target: 'https://alice.example.com',
      continuous: false,
    });
    expect(started).toMatchObject({ status: 200, body: { success: true, message: 'Scan started' } });
    const { data: scan } = await alice.supabase
      .from('scan_results')
      .select('status, scan_type, target, job_id')
      .eq('id', started.body.scanId as string)
      .single();
    expect(scan).toMatchObject({
      status: 'in_progress',
      scan_type: 'webapp',
      target: 'https://alice.example.com',
    });
    const { data: job } = await alice.supabase
      .from('jobs')
      .select('kind, status, payload')
      .eq('id', scan!.job_id!)
      .single();
    expect(job).toMatchObject({ kind: 'scan', status: 'queued', payload: { scanner: 'webapp' } });
    expect((await scanner(alice.supabase, { action: 'start_scan', toolType: 'webapp' })).status).toBe(409);
    expect(await scanner(alice.supabase, { action: 'stop_scan', toolType: 'webapp' })).toEqual({
      status: 200,
      body: { success: true, message: 'Scan stopped' },
    });
    const { data: after } = await alice.supabase
      .from('scan_results')
      .select('status')
      .eq('id', started.body.scanId as string)
      .single();
    expect(after!.status).toBe('stopped');
    expect((await scanner(alice.supabase, { action: 'stop_scan', toolType: 'webapp' })).status).toBe(409);
  });

  it('orchestration acts only for the caller', async () => {
    const res = await orchestrate(bob.supabase, {
      userId: alice.id,
      toolType: 'webapp',
      action: 'initialize',
    });
    expect(res.status).toBe(403);
    const { data } = await bob.supabase.from('security_tool_configurations').select('id');
    expect(data).toEqual([]);
  });

  it('orchestration maps siem to the network mapper', async () => {
    const host = await target(stack, bob.id, 'bob-host.example.com', { kind: 'host' });
    expect(
      await orchestrate(bob.supabase, { userId: bob.id, toolType: 'siem', action: 'initialize' }),
    ).toMatchObject({ status: 200, body: { engine: 'network-mapper' } });
    const started = await orchestrate(bob.supabase, {
      userId: bob.id,
      toolType: 'siem',
      action: 'scan',
      target: host.id,
      options: { ports: '22,443' },
    });
    expect(started).toMatchObject({ status: 200, body: { success: true, toolType: 'siem' } });
    const { data: job } = await bob.supabase
      .from('jobs')
      .select('payload')
      .eq('id', started.body.jobId as string)
      .single();
    expect(job!.payload).toMatchObject({
      scanner: 'infrastructure',
      tool_type: 'siem',
      options: { ports: '22,443' },
    });
    const status = await orchestrate(bob.supabase, { userId: bob.id, toolType: 'siem', action: 'status' });
    expect(status.body).toMatchObject({ success: true, scan: { status: 'in_progress' } });
    expect(
      (await orchestrate(bob.supabase, { userId: bob.id, toolType: 'siem', action: 'stop' })).status,
    ).toBe(200);
    // A web scan cannot run on a bare host target.
    expect(
      (await orchestrate(bob.supabase, { userId: bob.id, toolType: 'webapp', action: 'initialize' })).status,
    ).toBe(200);
    expect(
      (
        await orchestrate(bob.supabase, {
          userId: bob.id,
          toolType: 'webapp',
          action: 'scan',
          target: host.id,
        })
      ).status,
    ).toBe(400);
  });

  it("says plainly that cloud and threat-intel connectors need the customer's credentials, and runs nothing", async () => {
    for (const toolType of ['cloud_security', 'threat_intel']) {
      const res = await orchestrate(bob.supabase, { userId: bob.id, toolType, action: 'scan', target: 'x' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/credentials|API key/);
      expect(res.body.error).toMatch(/no results were produced/);
      expect((await scanner(bob.supabase, { action: 'initialize', toolType })).status).toBe(422);
    }
    const { data } = await bob.supabase
      .from('scan_results')
      .select('scan_type')
      .in('scan_type', ['cloud_security', 'threat_intel']);
    expect(data).toEqual([]);
  });

  it('refuse a customer without an agent covering the scan type, with 402 and the way to activate', async () => {
    const carol = await customer(stack, undefined, []);
    const site = await target(stack, carol.id, 'https://carol.example.com');
    const unproven = await target(stack, carol.id, 'https://carol-new.example.com', { verified: false });
    const refusal = {
      status: 402,
      body: {
        error:
          'Web application scans need an active Penetration Tester or Application Security agent. Activate one on the Agents page.',
        details: { code: 'agent_required', scanType: 'webapp', activate: '/dashboard/agents' },
      },
    };
    for (const body of [
      { action: 'initialize', toolType: 'webapp' },
      { action: 'start_scan', toolType: 'webapp', target: site.id, continuous: false },
      { action: 'verify_target', toolType: 'webapp', target: unproven.id },
    ]) {
      expect(await scanner(carol.supabase, body)).toEqual(refusal);
    }
    expect(
      await orchestrate(carol.supabase, {
        userId: carol.id,
        toolType: 'webapp',
        action: 'scan',
        target: site.id,
      }),
    ).toEqual(refusal);
    // Even with the scanner set up before (a trial that ended), nothing is queued or fetched.
    await initialised(stack, carol.id, 'webapp', { target_id: site.id });
    expect((await scanner(carol.supabase, { action: 'start_scan', toolType: 'webapp' })).status).toBe(402);
    const { data: jobs } = await carol.supabase.from('jobs').select('id');
    expect(jobs).toEqual([]);
    // Reading a scan's status and stopping one stay open to everyone signed in.
    expect(
      (await orchestrate(carol.supabase, { userId: carol.id, toolType: 'webapp', action: 'status' })).status,
    ).toBe(200);

    // Cloud Security covers infrastructure scans, not web application ones; it verifies URLs for them.
    await activateAgents(stack.ctx.db, carol.id, ['cloud_security']);
    expect((await scanner(carol.supabase, { action: 'start_scan', toolType: 'webapp' })).status).toBe(402);
    expect(await scanner(carol.supabase, { action: 'initialize', toolType: 'infrastructure' })).toMatchObject(
      {
        status: 200,
      },
    );
    const started = await scanner(carol.supabase, {
      action: 'start_scan',
      toolType: 'infrastructure',
      target: site.id,
      continuous: false,
    });
    expect(started).toMatchObject({ status: 200, body: { success: true } });
    // No worker runs here: play its part, answering the verification job as soon as it is queued.
    const verifying = scanner(carol.supabase, {
      action: 'verify_target',
      toolType: 'webapp',
      target: unproven.id,
    });
    const job = await waitFor('the verification job', async () => {
      const { rows } = await stack.ctx.db.query<{ id: string; payload: Record<string, unknown> }>(
        `select id, payload from public.jobs where user_id = $1 and kind = 'verify'`,
        [carol.id],
      );
      return rows[0];
    });
    expect(job.payload).toEqual({ target_id: unproven.id, tool_type: 'infrastructure' });
    await stack.ctx.db.query(
      `update public.jobs set status = 'succeeded', result = '{"verified": false, "reason": "No token served"}' where id = $1`,
      [job.id],
    );
    expect(await verifying).toEqual({ status: 422, body: { error: 'No token served' } });
  }, 60_000);

  it('answer 400 for malformed bodies', async () => {
    expect((await scanner(alice.supabase, { action: 'launch', toolType: 'webapp' })).status).toBe(400);
    expect((await scanner(alice.supabase, { action: 'initialize', toolType: 'mainframe' })).status).toBe(400);
    expect(
      (await orchestrate(alice.supabase, { userId: 'not-a-uuid', toolType: 'webapp', action: 'status' }))
        .status,
    ).toBe(400);
  });
});
