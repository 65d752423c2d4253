// Alert notifications: queued per user_settings, e-mailed through the mail transport, and POSTed to the
// customer's webhook signed with HMAC-SHA256 (Vigil JSON or Slack), retried after a failure, refused in
// hosted mode for a loopback receiver.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../agents/queue/client.ts';
import { deliverDue } from '../../../agents/notify/deliver.ts';
import { queueNotifications } from '../../../agents/notify/outbox.ts';
import { verifyWebhook } from '../../../agents/notify/sign.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { customer, target, type Customer } from '../../helpers/queue-support.ts';

let stack: RunningStack;
let db: ServiceClient;
let alice: Customer;
let receiver: https.Server;
let hookUrl: string;
let ca: string;
const received: { body: string; signature: string }[] = [];
let answer = 200;

beforeAll(async () => {
  stack = await startTestStack();
  db = createServiceClient(stack.url, stack.status.service_role_key);
  alice = await customer(stack);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-hook-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  ca = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  receiver = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: ca }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['x-vigil-signature']) });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/vigil`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await stack.close();
});

async function scanWithHighEvent(userId: string): Promise<string> {
  const t = await target(stack, userId, `https://n-${crypto.randomUUID().slice(0, 6)}.example.com`);
  const { data: jobId } = await db.rpc('enqueue_scan', {
    p_user: userId,
    p_tool: 'webapp',
    p_target_id: t.id,
    p_scanner: 'webapp',
  });
  const { rows } = await stack.ctx.db.query<{ id: string }>(
    `update public.scan_results set status = 'completed', end_time = now() where job_id = $1 returning id`,
    [jobId],
  );
  await stack.ctx.db.query(
    `insert into public.security_events (user_id, event_type, description, severity, scan_result_id) values ($1, 'vulnerability_detected', 'Git repository exposed at /.git/HEAD', 'high', $2)`,
    [userId, rows[0]!.id],
  );
  return rows[0]!.id;
}

describe('alert notifications', () => {
  it("e-mails and signs webhooks per the customer's settings, retrying a failed delivery", async () => {
    const { error } = await alice.supabase
      .from('user_settings')
      .update({ webhook_notifications: true, webhook_url: hookUrl })
      .eq('user_id', alice.id);
    expect(error).toBeNull();
    const scanId = await scanWithHighEvent(alice.id);
    expect(await queueNotifications(db, alice.id, scanId)).toBe(2);
    // Queueing twice for one scan adds nothing.
    await queueNotifications(db, alice.id, scanId);
    const mails: { to: string; subject: string }[] = [];
    answer = 500;
    const first = await deliverDue(db, {
      mode: 'local',
      ca,
      mail: { send: (m) => Promise.resolve(void mails.push(m)) },
    });
    expect(first).toEqual({ sent: 1, failed: 1 });
    expect(mails).toEqual([
      expect.objectContaining({
        to: alice.email,
        subject: expect.stringContaining('1 new high-severity security alert') as unknown,
      }),
    ]);
    const { rows: pending } = await stack.ctx.db.query<{ status: string; attempts: number; due: boolean }>(
      `select status, attempts, next_attempt_at > now() as due from public.notification_outbox where channel = 'webhook' and user_id = $1`,
      [alice.id],
    );
    expect(pending).toEqual([{ status: 'pending', attempts: 1, due: true }]);
    // Not retried before its back-off ends; retried after.
    expect(await deliverDue(db, { mode: 'local', ca })).toEqual({ sent: 0, failed: 0 });
    await stack.ctx.db.query(
      `update public.notification_outbox set next_attempt_at = now() where user_id = $1`,
      [alice.id],
    );
    answer = 204;
    expect(await deliverDue(db, { mode: 'local', ca })).toEqual({ sent: 1, failed: 0 });
    const { data: settings } = await alice.supabase.from('user_settings').select('webhook_secret').single();
    const last = received.at(-1)!;
    expect(verifyWebhook(last.body, last.signature, settings!.webhook_secret)).toBe(true);
    expect(verifyWebhook(last.body, last.signature, 'whsec_other')).toBe(false);
    expect(JSON.parse(last.body)).toMatchObject({
      type: 'security_alerts',
      scan_id: scanId,
      events: [{ severity: 'high' }],
    });
  });

  it('sends a Slack-compatible payload on request', async () => {
    await alice.supabase.from('user_settings').update({ webhook_format: 'slack' }).eq('user_id', alice.id);
    const scanId = await scanWithHighEvent(alice.id);
    await queueNotifications(db, alice.id, scanId);
    expect(await deliverDue(db, { mode: 'local', ca })).toEqual({ sent: 1, failed: 0 });
    const body = JSON.parse(received.at(-1)!.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain('[HIGH] Git repository exposed');
  });

  it('refuses a loopback webhook in hosted mode', async () => {
    const before = received.length;
    const scanId = await scanWithHighEvent(alice.id);
    await queueNotifications(db, alice.id, scanId);
    expect(await deliverDue(db, { mode: 'hosted', ca })).toEqual({ sent: 0, failed: 1 });
    expect(received.length).toBe(before);
    const { rows } = await stack.ctx.db.query<{ last_error: string }>(
      `select last_error from public.notification_outbox where dedupe_key = $1`,
      [`webhook:${scanId}`],
    );
    expect(rows[0]!.last_error).toMatch(/loopback/);
  });
});
