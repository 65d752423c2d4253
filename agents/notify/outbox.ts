// Queues the notifications of one scan per the customer's settings (user_settings): one e-mail and one
// webhook delivery per scan that opened critical or high security events. Rows go to the service-only
// notification_outbox; the notifier (deliver.ts) sends them with retries.
import type { ServiceClient } from '../queue/client.ts';

interface EventRow {
  id: string;
  severity: string;
  description: string;
  event_type: string;
  details: unknown;
  created_at: string;
}

export interface AlertDigest {
  scan_id: string;
  events: { id: string; severity: string; type: string; description: string }[];
}

export function digestText(digest: AlertDigest): { subject: string; text: string } {
  const critical = digest.events.filter((e) => e.severity === 'critical').length;
  const subject = `Vigil: ${digest.events.length} new ${critical ? 'critical' : 'high'}-severity security alert${digest.events.length === 1 ? '' : 's'}`;
  const lines = digest.events.map((e) => `- [${e.severity.toUpperCase()}] ${e.description}`);
  return {
    subject,
    text: `${subject}\n\n${lines.join('\n')}\n\nOpen Security Alerts in Vigil to triage them.`,
  };
}

export async function queueNotifications(db: ServiceClient, userId: string, scanId: string): Promise<number> {
  const { data: events, error } = await db
    .from('security_events')
    .select('id, severity, description, event_type, details, created_at')
    .eq('scan_result_id', scanId)
    .eq('status', 'open')
    .in('severity', ['critical', 'high'])
    .limit(100);
  if (error) {
    throw new Error(`reading alerts failed: ${error.message}`);
  }
  if (!events.length) {
    return 0;
  }
  const { data: settings, error: settingsError } = await db
    .from('user_settings')
    .select('email_notifications, webhook_notifications, webhook_url')
    .eq('user_id', userId)
    .maybeSingle();
  if (settingsError) {
    throw new Error(`reading user_settings failed: ${settingsError.message}`);
  }
  const digest: AlertDigest = {
    scan_id: scanId,
    events: (events as EventRow[]).map((e) => ({
      id: e.id,
      severity: e.severity,
      type: e.event_type,
      description: e.description,
    })),
  };
  const { subject } = digestText(digest);
  const rows: {
    user_id: string;
    channel: 'email' | 'webhook';
    recipient: string;
    subject: string;
    payload: never;
    dedupe_key: string;
  }[] = [];
  // Settings default to e-mail on (docs/product.md §4) when the row is missing.
  if (settings?.email_notifications ?? true) {
    const { data: user } = await db.auth.admin.getUserById(userId);
    if (user.user?.email) {
      rows.push({
        user_id: userId,
        channel: 'email',
        recipient: user.user.email,
        subject,
        payload: digest as never,
        dedupe_key: `email:${scanId}`,
      });
    }
  }
  if (settings?.webhook_notifications && settings.webhook_url) {
    rows.push({
      user_id: userId,
      channel: 'webhook',
      recipient: settings.webhook_url,
      subject,
      payload: digest as never,
      dedupe_key: `webhook:${scanId}`,
    });
  }
  if (!rows.length) {
    return 0;
  }
  const { error: insertError } = await db
    .from('notification_outbox')
    .upsert(rows, { onConflict: 'dedupe_key', ignoreDuplicates: true });
  if (insertError) {
    throw new Error(`queueing notifications failed: ${insertError.message}`);
  }
  return rows.length;
}
