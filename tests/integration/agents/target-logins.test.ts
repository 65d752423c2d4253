// Target logins (docs/product.md §10.1): saved through the scan-target-login function, sealed with a key that is not
// in the database, readable by the service role only. The hostile cases: the owner reading them back, a
// client writing the table or the summary, another tenant saving, deleting or moving a login, a tampered
// row, a wrong key, a function without its key.
import type { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createServiceClient } from '../../../agents/queue/client.ts';
import { targetLogin } from '../../../agents/targets/login.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { newCredentialsKey, openLogin, SealError } from '../../../shared/sealed-login.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { customer, target, type Customer } from '../../helpers/queue-support.ts';

let stack: RunningStack;
let alice: Customer;
let bob: Customer;
let aliceTarget: string;
let bobTarget: string;

const password = 'correct-horse-battery-staple';
const login: TargetLogin = {
  kind: 'form',
  login_url: 'https://shop.example.com/login',
  username_field: 'email',
  password_field: 'password',
  username: 'owner@shop.example.com',
  password,
  logged_in_marker: 'Log out',
};

async function call(who: Customer, body: Record<string, unknown>) {
  const { data, error } = (await who.supabase.functions.invoke<Record<string, unknown>>('scan-target-login', {
    body,
  })) as { data: Record<string, unknown> | null; error: unknown };
  if (error) {
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data! };
}

const binding = () => ({ userId: alice.id, targetId: aliceTarget });

beforeAll(async () => {
  stack = await startTestStack();
  alice = await customer(stack);
  bob = await customer(stack);
  aliceTarget = (await target(stack, alice.id, 'https://shop.example.com')).id;
  bobTarget = (await target(stack, bob.id, 'https://bob.example.com')).id;
});
afterAll(async () => {
  await stack.close();
});

describe('target logins', () => {
  it('are saved sealed, and the owner sees only their kind and login page', async () => {
    const saved = await call(alice, { action: 'save', targetId: aliceTarget, login });
    expect(saved).toEqual({
      status: 200,
      body: { saved: true, kind: 'form', login_url: 'https://shop.example.com/login' },
    });
    const { data: row } = await alice.supabase
      .from('scan_targets')
      .select('*')
      .eq('id', aliceTarget)
      .single();
    expect(row).toMatchObject({ login_kind: 'form', login_url: 'https://shop.example.com/login' });
    expect(JSON.stringify(row)).not.toContain(password);
    expect(JSON.stringify(row)).not.toContain('owner@shop.example.com');
    // In the database: a sealed box that names its key, and no credential.
    const { rows } = await stack.ctx.db.query<{ sealed: string; key_id: string; kind: string }>(
      'select sealed, key_id, kind from public.scan_target_logins where target_id = $1',
      [aliceTarget],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed).not.toContain(password);
    expect(rows[0]!.sealed.startsWith(`v1.${rows[0]!.key_id}.`)).toBe(true);
    expect(await openLogin(stack.ctx.credentialsKey, rows[0]!.sealed, binding())).toEqual(login);
  });

  it('are never returned to a client, not even to their owner, and clients cannot write them', async () => {
    for (const who of [alice.supabase, client(stack)]) {
      const read = await who.from('scan_target_logins').select('*');
      expect(read.data).toBeNull();
      expect(read.error?.code).toBe('42501');
      const counted = await who.from('scan_target_logins').select('*', { count: 'exact', head: true });
      expect(counted.count ?? null).toBeNull();
      const inserted = await who.from('scan_target_logins').insert({
        target_id: aliceTarget,
        user_id: alice.id,
        kind: 'form',
        sealed: 'x',
        key_id: '0'.repeat(16),
      });
      expect(inserted.error?.code).toBe('42501');
      const deleted = await who.from('scan_target_logins').delete().eq('target_id', aliceTarget);
      expect(deleted.error?.code).toBe('42501');
    }
    // Nor the summary on the target: only the function writes it.
    const forged = await alice.supabase
      .from('scan_targets')
      .update({ login_kind: 'cookie' } as never)
      .eq('id', aliceTarget);
    expect(forged.error?.code).toBe('42501');
  });

  it("cannot be saved, replaced or deleted on another customer's target", async () => {
    const steal = await call(bob, {
      action: 'save',
      targetId: aliceTarget,
      login: { ...login, password: 'x' },
    });
    expect(steal.status).toBe(404);
    const wipe = await call(bob, { action: 'delete', targetId: aliceTarget });
    expect(wipe.status).toBe(404);
    const opened = await targetLogin(
      createServiceClient(stack.url, stack.status.service_role_key),
      { id: aliceTarget, user_id: alice.id },
      stack.ctx.credentialsKey,
    );
    expect(opened).toEqual({ login });
  });

  it("does not open when moved to another tenant's target, altered, or opened with another key", async () => {
    const db = createServiceClient(stack.url, stack.status.service_role_key);
    const { data: stored } = await db
      .from('scan_target_logins')
      .select('sealed, key_id')
      .eq('target_id', aliceTarget)
      .single();
    // A row copied under Bob's target (as a compromised writer might): the binding to Alice's fails.
    await db.from('scan_target_logins').upsert({
      target_id: bobTarget,
      user_id: bob.id,
      kind: 'form',
      sealed: stored!.sealed,
      key_id: stored!.key_id,
    });
    const moved = await targetLogin(db, { id: bobTarget, user_id: bob.id }, stack.ctx.credentialsKey);
    expect(moved).toMatchObject({
      failed: { status: 'failed', detail: expect.stringMatching(/altered or belongs elsewhere/) as unknown },
    });
    // A login filed under a target of someone else is refused by the database itself.
    const crossed = await db.from('scan_target_logins').upsert({
      target_id: aliceTarget,
      user_id: bob.id,
      kind: 'form',
      sealed: stored!.sealed,
      key_id: stored!.key_id,
    });
    expect(crossed.error?.code).toBe('23503');
    const [v, kid, iv, data] = stored!.sealed.split('.') as [string, string, string, string];
    const flipped = `${data.slice(0, 10)}${data[10] === 'A' ? 'B' : 'A'}${data.slice(11)}`;
    await expect(
      openLogin(stack.ctx.credentialsKey, [v, kid, iv, flipped].join('.'), binding()),
    ).rejects.toMatchObject({
      reason: 'tampered',
    });
    await expect(openLogin(newCredentialsKey(), stored!.sealed, binding())).rejects.toBeInstanceOf(SealError);
    expect(await targetLogin(db, { id: aliceTarget, user_id: alice.id }, newCredentialsKey())).toMatchObject({
      failed: { detail: expect.stringMatching(/another credentials key/) as unknown },
    });
    expect(await targetLogin(db, { id: aliceTarget, user_id: alice.id }, undefined)).toMatchObject({
      failed: { detail: expect.stringMatching(/no credentials key \(VIGIL_CREDENTIALS_KEY\)/) as unknown },
    });
  });

  it('refuses bad logins with the reason, and says so when the server has no key', async () => {
    const otherSite = await call(alice, {
      action: 'save',
      targetId: aliceTarget,
      login: { ...login, login_url: 'https://evil.example.net/login' },
    });
    expect(otherSite).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/target's own site/) as unknown },
    });
    const incomplete = await call(alice, {
      action: 'save',
      targetId: aliceTarget,
      login: { ...login, password: '' },
    });
    expect(incomplete).toMatchObject({ status: 400, body: { error: 'Invalid request body' } });
    const header = await call(alice, {
      action: 'save',
      targetId: aliceTarget,
      login: { kind: 'header', header_name: 'Authorization', header_value: 'Bearer x\r\nX-Evil: 1' },
    });
    expect(header.status).toBe(400);
    const host = (await target(stack, alice.id, 'shop-db.example.com', { kind: 'host' })).id;
    expect((await call(alice, { action: 'save', targetId: host, login })).status).toBe(422);
    const key = process.env.VIGIL_CREDENTIALS_KEY;
    delete process.env.VIGIL_CREDENTIALS_KEY;
    try {
      const unconfigured = await call(alice, { action: 'save', targetId: aliceTarget, login });
      expect(unconfigured).toMatchObject({
        status: 503,
        body: { error: expect.stringMatching(/VIGIL_CREDENTIALS_KEY/) as unknown },
      });
    } finally {
      process.env.VIGIL_CREDENTIALS_KEY = key;
    }
    expect(await openLogin(stack.ctx.credentialsKey, await sealed(), binding())).toEqual(login);
  });

  it('are deleted with their summary', async () => {
    expect(await call(alice, { action: 'delete', targetId: aliceTarget })).toEqual({
      status: 200,
      body: { deleted: true },
    });
    const { data: row } = await alice.supabase
      .from('scan_targets')
      .select('login_kind, login_url, login_updated_at')
      .eq('id', aliceTarget)
      .single();
    expect(row).toEqual({ login_kind: null, login_url: null, login_updated_at: null });
    const { rows } = await stack.ctx.db.query(
      'select 1 from public.scan_target_logins where target_id = $1',
      [aliceTarget],
    );
    expect(rows).toEqual([]);
  });
});

async function sealed(): Promise<string> {
  const { rows } = await stack.ctx.db.query<{ sealed: string }>(
    'select sealed from public.scan_target_logins where target_id = $1',
    [aliceTarget],
  );
  return rows[0]!.sealed;
}
