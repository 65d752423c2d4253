// The notifier: sends due rows of notification_outbox. E-mail goes through a transport (the embedded
// stack's mailer in process, or SMTP via SMTP_URL); webhooks are POSTed signed with HMAC-SHA256 under the
// customer's webhook_secret, as Vigil JSON or a Slack-compatible {text} payload. Failures retry with
// exponential back-off; after MAX_ATTEMPTS the row is dead. Webhook URLs pass the scanners' target
// policy, so in hosted mode a webhook cannot reach private or metadata addresses.
import https from 'node:https';
import type { ServiceClient } from '../queue/client.ts';
import { TargetPolicy, pinnedLookup, type ScanMode } from '../scanners/target-policy.ts';
import { isReportReady, reportReadyMail } from '../reports/notify.ts';
import { digestText, type AlertDigest } from './outbox.ts';
import { signWebhook } from './sign.ts';

export interface MailTransport {
  send(mail: { to: string; subject: string; text: string; html: string }): Promise<void>;
}

export const MAX_ATTEMPTS = 6;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface OutboxRow {
  id: string;
  user_id: string;
  channel: 'email' | 'webhook';
  recipient: string;
  subject: string;
  payload: AlertDigest;
  attempts: number;
}

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  mode: ScanMode,
  ca?: string,
): Promise<number> {
  const target = new URL(url);
  // Guard: only https, and only addresses the mode allows (hosted: public unicast).
  if (target.protocol !== 'https:') {
    throw new Error('webhooks are delivered only to https:// URLs');
  }
  const resolved = await new TargetPolicy(mode).assertUrl(target);
  return new Promise((resolve, reject) => {
    const req = https.request(
      target,
      {
        method: 'POST',
        lookup: pinnedLookup(resolved),
        timeout: 10_000,
        ...(ca ? { ca } : {}),
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('webhook timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

export interface DeliverOptions {
  mode: ScanMode;
  mail?: MailTransport;
  limit?: number;
  /** Extra trusted CA for webhook TLS (a private CA in tests or on-premises receivers). */
  ca?: string;
}

export async function deliverDue(
  db: ServiceClient,
  options: DeliverOptions,
): Promise<{ sent: number; failed: number }> {
  const channels = options.mail ? ['email', 'webhook'] : ['webhook'];
  const { data: due, error } = await db
    .from('notification_outbox')
    .select('id, user_id, channel, recipient, subject, payload, attempts')
    .eq('status', 'pending')
    .in('channel', channels)
    .lte('next_attempt_at', new Date().toISOString())
    .order('next_attempt_at')
    .limit(options.limit ?? 20);
  if (error) {
    throw new Error(`reading the outbox failed: ${error.message}`);
  }
  let sent = 0;
  let failed = 0;
  for (const row of due as unknown as OutboxRow[]) {
    // Guard: claim the row first, so two notifiers never send one message twice.
    const { data: claimed } = await db
      .from('notification_outbox')
      .update({ status: 'sending' })
      .eq('id', row.id)
      .eq('status', 'pending')
      .select('id');
    if (!claimed?.length) {
      continue;
    }
    try {
      await deliverOne(db, row, options);
      await db
        .from('notification_outbox')
        .update({
          status: 'sent',
          sent_at: new Date().toISOString(),
          attempts: row.attempts + 1,
          last_error: null,
        })
        .eq('id', row.id);
      sent++;
    } catch (e) {
      failed++;
      const attempts = row.attempts + 1;
      const delaySeconds = Math.min(3600, 30 * 2 ** (attempts - 1));
      await db
        .from('notification_outbox')
        .update({
          status: attempts >= MAX_ATTEMPTS ? 'dead' : 'pending',
          attempts,
          last_error: (e instanceof Error ? e.message : String(e)).slice(0, 1000),
          next_attempt_at: new Date(Date.now() + delaySeconds * 1000).toISOString(),
        })
        .eq('id', row.id);
    }
  }
  return { sent, failed };
}

async function deliverOne(db: ServiceClient, row: OutboxRow, options: DeliverOptions): Promise<void> {
  // Report-ready mails (agents/reports/notify.ts) carry their own payload shape.
  if (isReportReady(row.payload) && row.channel === 'email') {
    await options.mail!.send({ to: row.recipient, ...reportReadyMail(row.payload) });
    return;
  }
  const { subject, text } = digestText(row.payload);
  if (row.channel === 'email') {
    const html = `<p>${escapeHtml(subject)}</p><ul>${row.payload.events.map((e) => `<li><b>${escapeHtml(e.severity)}</b> ${escapeHtml(e.description)}</li>`).join('')}</ul>`;
    await options.mail!.send({ to: row.recipient, subject, text, html });
    return;
  }
  const { data: settings, error } = await db
    .from('user_settings')
    .select('webhook_secret, webhook_format')
    .eq('user_id', row.user_id)
    .single();
  if (error) {
    throw new Error(`reading the webhook secret failed: ${error.message}`);
  }
  const body = JSON.stringify(
    settings.webhook_format === 'slack' ? { text } : { type: 'security_alerts', subject, ...row.payload },
  );
  const status = await postWebhook(
    row.recipient,
    body,
    { 'x-vigil-signature': signWebhook(body, settings.webhook_secret), 'user-agent': 'Vigil-Webhooks/1' },
    options.mode,
    options.ca,
  );
  if (status < 200 || status > 299) {
    throw new Error(`webhook answered HTTP ${status}`);
  }
}
