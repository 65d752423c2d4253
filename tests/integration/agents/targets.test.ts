// Scan targets: customers manage their own, never mark one verified themselves; ownership is proven by
// the token at /.well-known/vigil-verification.txt or a DNS TXT record; hosted mode refuses private,
// loopback and metadata addresses before sending anything.
import type { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../agents/queue/client.ts';
import { verifyTarget } from '../../../agents/targets/verify.ts';
import { startAgent, type Agent } from '../../../agents/worker/agent.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { customer, targetServer, type Customer, type TargetServer } from '../../helpers/queue-support.ts';

let stack: RunningStack;
let srv: TargetServer;
let agent: Agent;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  stack = await startTestStack();
  srv = await targetServer();
  // The hosted policy: this worker must refuse every loopback target.
  agent = startAgent({
    db: createServiceClient(stack.url, stack.status.service_role_key),
    mode: 'hosted',
    pollMs: 100,
    dutyMs: 3_600_000,
    log: () => {},
  });
  alice = await customer(stack);
  bob = await customer(stack);
});
afterAll(async () => {
  await agent.stop();
  await srv.close();
  await stack.close();
});

const token = 'a'.repeat(64);

describe('scan targets', () => {
  it('belong to their customer, who cannot set or read past the verification columns', async () => {
    const { data: t, error } = await alice.supabase
      .from('scan_targets')
      .insert({ kind: 'url', value: 'https://shop.example.com' })
      .select()
      .single();
    expect(error).toBeNull();
    expect(t!.verification_token).toMatch(/^[0-9a-f]{64}$/);
    const forged = await alice.supabase.from('scan_targets').insert({
      kind: 'url',
      value: 'https://forged.example.com',
      verified_at: new Date().toISOString(),
    } as never);
    expect(forged.error?.code).toBe('42501');
    const tokenSwap = await alice.supabase
      .from('scan_targets')
      .update({ verification_token: token } as never)
      .eq('id', t!.id);
    expect(tokenSwap.error?.code).toBe('42501');
    const forOther = await alice.supabase
      .from('scan_targets')
      .insert({ kind: 'url', value: 'https://x.example.com', user_id: bob.id });
    expect(forOther.error?.code).toBe('42501');
    expect((await bob.supabase.from('scan_targets').select('id')).data).toEqual([]);
    const bobDelete = await bob.supabase.from('scan_targets').delete().eq('id', t!.id).select();
    expect(bobDelete.data).toEqual([]);
    const dup = await alice.supabase
      .from('scan_targets')
      .insert({ kind: 'url', value: 'https://shop.example.com' });
    expect(dup.error?.code).toBe('23505');
    const bad = await alice.supabase
      .from('scan_targets')
      .insert({ kind: 'url', value: 'ftp://files.example.com' });
    expect(bad.error?.code).toBe('23514');
  });

  it('verifies by the well-known file in local mode, and only with the right token', async () => {
    srv.token = null;
    expect(
      await verifyTarget({ kind: 'url', value: srv.url, verification_token: token }, { mode: 'local' }),
    ).toMatchObject({ verified: false });
    srv.token = 'b'.repeat(64);
    const wrong = await verifyTarget(
      { kind: 'url', value: srv.url, verification_token: token },
      { mode: 'local' },
    );
    expect(wrong).toMatchObject({ verified: false });
    expect((wrong as { reason: string }).reason).toContain('without the token');
    srv.token = token;
    expect(
      await verifyTarget(
        { kind: 'url', value: `${srv.url}/shop/`, verification_token: token },
        { mode: 'local' },
      ),
    ).toEqual({ verified: true, method: 'http' });
  });

  it('verifies by DNS TXT record when no file is served', async () => {
    const resolver = () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
    const txt = () => Promise.resolve([['v=spf1 -all'], ['vigil-verification=', token]]);
    const out = await verifyTarget(
      { kind: 'host', value: 'unreachable.invalid', verification_token: token },
      {
        mode: 'hosted',
        resolver,
        txtResolver: txt,
      },
    );
    // The TXT record is checked first, so no request is sent to the (public) address.
    expect(out).toEqual({ verified: true, method: 'dns' });
  }, 30_000);

  it('refuses private, loopback and metadata addresses in hosted mode without a request', async () => {
    const before = srv.requests;
    srv.token = token;
    for (const value of [
      srv.url,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/',
      'http://[::1]:8080/',
    ]) {
      const out = await verifyTarget({ kind: 'url', value, verification_token: token }, { mode: 'hosted' });
      expect(out).toMatchObject({ verified: false });
      expect((out as { reason: string }).reason).toMatch(/cannot be scanned/);
    }
    const rebinding = await verifyTarget(
      { kind: 'host', value: 'rebind.example', verification_token: token },
      {
        mode: 'hosted',
        resolver: () =>
          Promise.resolve([
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ]),
      },
    );
    expect(rebinding).toMatchObject({ verified: false });
    expect(srv.requests).toBe(before);
  });

  it("the function's verify_target goes through the hosted worker, which refuses a loopback target", async () => {
    const { data: t } = await alice.supabase
      .from('scan_targets')
      .insert({ kind: 'url', value: srv.url })
      .select()
      .single();
    srv.token = t!.verification_token;
    const { error } = (await alice.supabase.functions.invoke<Record<string, unknown>>(
      'security-scanner-integration',
      { body: { action: 'verify_target', toolType: 'webapp', target: t!.id } },
    )) as { data: Record<string, unknown> | null; error: unknown };
    const res = (error as FunctionsHttpError).context as Response;
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(/cannot be scanned.*loopback/);
    const { data: after } = await alice.supabase
      .from('scan_targets')
      .select('verified_at, verification_error')
      .eq('id', t!.id)
      .single();
    expect(after!.verified_at).toBeNull();
    expect(after!.verification_error).toMatch(/loopback/);
  });

  it("bob cannot verify or even find alice's target through the function", async () => {
    const { data: t } = await alice.supabase.from('scan_targets').select('id').limit(1).single();
    const { error } = (await bob.supabase.functions.invoke<Record<string, unknown>>(
      'security-scanner-integration',
      { body: { action: 'verify_target', toolType: 'webapp', target: t!.id } },
    )) as { data: Record<string, unknown> | null; error: unknown };
    expect(((error as FunctionsHttpError).context as Response).status).toBe(404);
  });
});
