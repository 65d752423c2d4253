// docs/product.md §15, tried as an attacker would: a customer with a verified TOTP factor, and someone who has only
// the password (an aal1 session). Through the unmodified supabase-js and the real stack, that session reads
// and writes none of the customer's data (REST, RPCs, storage, realtime, edge functions) and cannot change
// the password or e-mail address, while what the second step needs keeps working; after the step (aal2)
// everything is back.
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { subscribed, sleep, waitFor } from '../../helpers/realtime-fixture.ts';

let stack: RunningStack;
let owner: TestUser; // signed in with password and TOTP: aal2
let thief: SupabaseClient; // the same account, password only: aal1
let factorId: string;
let secret: string;
const admin = () => client(stack, 'service_role');

const totp = () =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

async function stepUp(sb: SupabaseClient): Promise<void> {
  const challenge = await sb.auth.mfa.challenge({ factorId });
  expect(challenge.error).toBeNull();
  const verified = await sb.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code: totp() });
  expect(verified.error).toBeNull();
  // supabase-js hands realtime a new token on sign-in and refresh, not on MFA_CHALLENGE_VERIFIED: the app
  // does it (renderer/src/lib/auth), and so does this test.
  await sb.realtime.setAuth();
}

async function passwordOnly(): Promise<SupabaseClient> {
  const sb = client(stack);
  const { error } = await sb.auth.signInWithPassword({ email: owner.email, password: owner.password });
  expect(error).toBeNull();
  const aal = await sb.auth.mfa.getAuthenticatorAssuranceLevel();
  expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  return sb;
}

async function invoke(sb: SupabaseClient, name: string, body: Record<string, unknown>) {
  const { data, error } = (await sb.functions.invoke<Record<string, unknown>>(name, { body })) as {
    data: Record<string, unknown> | null;
    error: unknown;
  };
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const res = (error as FunctionsHttpError).context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data! };
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await signedInUser(stack, `aal2-owner-${Date.now()}@example.com`);
  const enrolled = await owner.supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  if (enrolled.error || enrolled.data.type !== 'totp') {
    throw new Error('no totp factor');
  }
  factorId = enrolled.data.id;
  secret = enrolled.data.totp.secret;
  await stepUp(owner.supabase);
  // What the agents and the checkout webhook would have written for this customer.
  const db = admin();
  await db
    .from('user_settings')
    .update({ webhook_url: 'https://hooks.example.com/vigil', webhook_notifications: true })
    .eq('user_id', owner.id)
    .throwOnError();
  await db
    .from('security_events')
    .insert({ user_id: owner.id, event_type: 'open_port', description: 'Telnet exposed', severity: 'high' })
    .throwOnError();
  await db
    .from('report_configurations')
    .insert({ user_id: owner.id, name: 'Weekly', schedule_type: 'weekly' })
    .throwOnError();
  await db
    .from('two_factor_auth')
    .upsert({ user_id: owner.id, is_enabled: true, method: 'totp' }, { onConflict: 'user_id' })
    .throwOnError();
  await db.storage
    .from('reports')
    .upload(`${owner.id}/weekly.pdf`, new Blob(['%PDF-1.7 report'], { type: 'application/pdf' }))
    .then(({ error }) => {
      if (error) {
        throw error;
      }
    });
  thief = await passwordOnly();
});
afterAll(async () => {
  await owner?.supabase.removeAllChannels();
  await thief?.removeAllChannels();
  await stack?.close();
});

describe('an aal1 session of a user with a verified factor', () => {
  it('reads none of the rows, not even the webhook secret or the second-factor marker', async () => {
    for (const table of [
      'profiles',
      'user_settings',
      'two_factor_auth',
      'security_events',
      'report_configurations',
    ] as const) {
      const theirs = await thief.from(table).select('*');
      expect({ table, error: theirs.error, rows: theirs.data }).toEqual({ table, error: null, rows: [] });
      const mine = await owner.supabase.from(table).select('*');
      expect({ table, rows: mine.data?.length }).toEqual({ table, rows: 1 });
    }
  });

  it('writes nothing: inserts are refused, updates and deletes touch no row', async () => {
    const insert = await thief.from('report_configurations').insert({
      user_id: owner.id,
      name: 'Exfiltrate',
      schedule_type: 'daily',
    });
    expect(insert.status).toBe(403);
    expect(insert.error?.code).toBe('42501');

    const hook = await thief
      .from('user_settings')
      .update({ webhook_url: 'https://attacker.example/steal' })
      .eq('user_id', owner.id)
      .select();
    expect(hook.data).toEqual([]);
    const off = await thief
      .from('two_factor_auth')
      .update({ is_enabled: false })
      .eq('user_id', owner.id)
      .select();
    expect(off.data).toEqual([]);
    const removed = await thief.from('report_configurations').delete().eq('user_id', owner.id).select();
    expect(removed.data).toEqual([]);

    const settings = await admin()
      .from('user_settings')
      .select('webhook_url')
      .eq('user_id', owner.id)
      .single();
    expect(settings.data?.webhook_url).toBe('https://hooks.example.com/vigil');
    const marker = await admin()
      .from('two_factor_auth')
      .select('is_enabled')
      .eq('user_id', owner.id)
      .single();
    expect(marker.data?.is_enabled).toBe(true);
    const configs = await admin().from('report_configurations').select('name').eq('user_id', owner.id);
    expect(configs.data).toEqual([{ name: 'Weekly' }]);
  });

  it('cannot call the customer RPCs that bypass row-level security', async () => {
    const event = await owner.supabase.from('security_events').select('id').single<{ id: string }>();
    const resolved = await thief.rpc('resolve_security_event', { p_event: event.data!.id });
    expect(resolved.status).toBe(403);
    expect(resolved.error).toMatchObject({ code: '42501', hint: 'insufficient_aal' });
    const config = await owner.supabase.from('report_configurations').select('id').single<{ id: string }>();
    const report = await thief.rpc('request_report', { p_configuration: config.data!.id });
    expect(report.error?.code).toBe('42501');
    const open = await admin().from('security_events').select('status').eq('id', event.data!.id).single();
    expect(open.data?.status).toBe('open');
  });

  it('downloads no report and gets no signed link to one', async () => {
    const path = `${owner.id}/weekly.pdf`;
    const download = await thief.storage.from('reports').download(path);
    expect(download.data).toBeNull();
    const signed = await thief.storage.from('reports').createSignedUrl(path, 60);
    expect(signed.data).toBeNull();
    const listed = await thief.storage.from('reports').list(owner.id);
    expect(listed.data ?? []).toEqual([]);
    const mine = await owner.supabase.storage.from('reports').download(path);
    expect(await mine.data?.text()).toBe('%PDF-1.7 report');
  });

  it('receives no realtime change until the session passes the second step', async () => {
    const got: string[] = [];
    const channel = thief
      .channel('aal-events')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'security_events' }, (m) =>
        got.push((m.new as { description: string }).description),
      );
    await subscribed(channel);
    const ownerGot: string[] = [];
    await subscribed(
      owner.supabase
        .channel('owner-events')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'security_events' }, (m) =>
          ownerGot.push((m.new as { description: string }).description),
        ),
    );
    await admin()
      .from('security_events')
      .insert({ user_id: owner.id, event_type: 'x', description: 'while aal1', severity: 'critical' })
      .throwOnError();
    await waitFor(() => ownerGot.includes('while aal1'), 3000, 'the owner gets the event');
    await sleep(300);
    expect(got).toEqual([]);

    // The same session passes the second factor and hands its new token to realtime.
    await stepUp(thief);
    await sleep(200);
    await admin()
      .from('security_events')
      .insert({ user_id: owner.id, event_type: 'x', description: 'after aal2', severity: 'critical' })
      .throwOnError();
    await waitFor(() => got.includes('after aal2'), 3000, 'the stepped-up session gets the event');
    expect(got).toEqual(['after aal2']);
    await thief.removeAllChannels();
    await owner.supabase.removeAllChannels();
    thief = await passwordOnly();
  });

  it('cannot join or send on a private channel', async () => {
    const topic = `aal-room-${owner.id}`;
    await stack.ctx.db.exec(`
      create policy "aal test: own room" on realtime.messages for all to authenticated
        using (realtime.topic() = 'aal-room-' || auth.uid()::text)
        with check (realtime.topic() = 'aal-room-' || auth.uid()::text);
    `);
    await subscribed(owner.supabase.channel(topic, { config: { private: true } }));
    await expect(subscribed(thief.channel(topic, { config: { private: true } }))).rejects.toThrow(
      /Unauthorized/,
    );
    await owner.supabase.removeAllChannels();
    await thief.removeAllChannels();
  });

  it('is refused by every edge function that acts for the user, with insufficient_aal', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['security-scanner-integration', { action: 'initialize', scannerType: 'webapp' }],
      ['security-tool-orchestration', { action: 'status', toolType: 'webapp' }],
      ['create-checkout-session', { roleIds: ['a9e1c0de-0002-4000-8000-000000000002'] }],
      ['billing-portal', { action: 'cancel' }],
      ['two-factor-auth', { action: 'get_challenge' }],
      ['two-factor-auth', { action: 'sync_state' }],
    ];
    for (const [name, body] of calls) {
      const res = await invoke(thief, name, body);
      expect({ name, status: res.status, code: res.body.error_code }).toEqual({
        name,
        status: 401,
        code: 'insufficient_aal',
      });
      expect(res.body.code).toBe('insufficient_aal');
      expect(res.body.error).toMatch(/AAL2 session is required/);
    }
    const tools = await admin().from('security_tool_configurations').select('id').eq('user_id', owner.id);
    expect(tools.data).toEqual([]);
  });

  it('may still log an error through application-logger (the second step reports its failures)', async () => {
    const res = await invoke(thief, 'application-logger', { level: 'error', message: 'mfa step failed' });
    expect(res.status).toBe(200);
  });

  it('cannot change the password or the e-mail address; the owner can at aal2', async () => {
    const password = await thief.auth.updateUser({ password: 'attacker-owns-this-1' });
    expect(password.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
    expect(password.error?.message).toBe(
      'AAL2 session is required to update email or password when MFA is enabled.',
    );
    const email = await thief.auth.updateUser({ email: 'attacker@example.com' });
    expect(email.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
    // Nothing changed: the owner's password still signs in, and no e-mail change is pending.
    const again = await passwordOnly();
    await again.auth.signOut({ scope: 'local' });
    const user = await admin().auth.admin.getUserById(owner.id);
    expect(user.data.user?.email).toBe(owner.email);
    expect(user.data.user?.new_email).toBeUndefined();
    // Metadata is not a credential: GoTrue lets aal1 change it.
    const meta = await thief.auth.updateUser({ data: { theme: 'dark' } });
    expect(meta.error).toBeNull();

    const changed = await owner.supabase.auth.updateUser({ password: 'owner-new-password-2' });
    expect(changed.error).toBeNull();
    owner.password = 'owner-new-password-2';
  });

  it('keeps what the second step needs: the factors, challenge, verify and sign-out', async () => {
    const sb = await passwordOnly();
    const factors = await sb.auth.mfa.listFactors();
    expect(factors.data?.totp.map((f) => f.id)).toEqual([factorId]);
    await stepUp(sb);
    const rows = await sb.from('security_events').select('id');
    expect(rows.data?.length).toBeGreaterThan(0);
    const out = await (await passwordOnly()).auth.signOut();
    expect(out.error).toBeNull();
  });
});

describe('a user without a verified factor', () => {
  it('is not affected: aal1 reads and writes its own rows', async () => {
    const plain = await signedInUser(stack, `aal1-plain-${Date.now()}@example.com`);
    // An enrolment that was never verified does not count.
    const pending = await plain.supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Later' });
    expect(pending.error).toBeNull();
    const settings = await plain.supabase.from('user_settings').select('user_id');
    expect(settings.data).toEqual([{ user_id: plain.id }]);
    const insert = await plain.supabase
      .from('report_configurations')
      .insert({ user_id: plain.id, name: 'Mine', schedule_type: 'monthly' })
      .select('name');
    expect(insert.data).toEqual([{ name: 'Mine' }]);
    const res = await invoke(plain.supabase, 'security-tool-orchestration', {
      action: 'status',
      toolType: 'webapp',
    });
    expect(res.body.error_code).toBeUndefined();
    const password = await plain.supabase.auth.updateUser({ password: 'another-secret-9' });
    expect(password.error).toBeNull();
  });
});
