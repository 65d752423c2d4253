// "Your report is ready" e-mail, queued in the notification outbox when the customer's
// email_notifications setting is on (default on). The notifier (agents/notify/deliver.ts) sends it.
// The mail carries no file or link with a token: the customer downloads from the Reports page, signed in.
import type { ServiceClient } from '../queue/client.ts';
import { REPORT_TITLES, type ReportType } from './types.ts';

export interface ReportReadyPayload {
  kind: 'report_ready';
  report_id: string;
  report_type: ReportType;
  configuration: string;
  generated_at: string;
}

export function isReportReady(payload: unknown): payload is ReportReadyPayload {
  return (
    typeof payload === 'object' && payload !== null && (payload as { kind?: unknown }).kind === 'report_ready'
  );
}

export function reportReadyMail(p: ReportReadyPayload): { subject: string; text: string; html: string } {
  const title = REPORT_TITLES[p.report_type];
  const subject = `Vigil: your ${title} is ready`;
  const text = `${subject}\n\nConfiguration: ${p.configuration}\nGenerated: ${p.generated_at}\n\nOpen Reports in Vigil (Dashboard > Reports) to download it as PDF, CSV or JSON.`;
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<p>${esc(subject)}</p><p>Configuration: ${esc(p.configuration)}<br>Generated: ${esc(p.generated_at)}</p><p>Open <b>Reports</b> in Vigil to download it as PDF, CSV or JSON.</p>`;
  return { subject, text, html };
}

export async function queueReportReadyMail(
  db: ServiceClient,
  userId: string,
  reportId: string,
): Promise<boolean> {
  const { data: settings, error } = await db
    .from('user_settings')
    .select('email_notifications')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) {
    throw new Error(`reading user_settings failed: ${error.message}`);
  }
  // Settings default to e-mail on (docs/product.md §4) when the row is missing.
  if (!(settings?.email_notifications ?? true)) {
    return false;
  }
  const [{ data: user }, { data: report, error: reportError }] = await Promise.all([
    db.auth.admin.getUserById(userId),
    db
      .from('generated_reports')
      .select('report_type, generated_at, report_configurations(name)')
      .eq('id', reportId)
      .single(),
  ]);
  if (reportError || !user.user?.email) {
    return false;
  }
  const payload: ReportReadyPayload = {
    kind: 'report_ready',
    report_id: reportId,
    report_type: report.report_type,
    configuration: report.report_configurations?.name ?? 'Deleted configuration',
    generated_at: report.generated_at,
  };
  const { error: insertError } = await db.from('notification_outbox').upsert(
    {
      user_id: userId,
      channel: 'email',
      recipient: user.user.email,
      subject: reportReadyMail(payload).subject,
      payload: payload as never,
      dedupe_key: `email:report:${reportId}`,
    },
    { onConflict: 'dedupe_key', ignoreDuplicates: true },
  );
  if (insertError) {
    throw new Error(`queueing the report e-mail failed: ${insertError.message}`);
  }
  return true;
}
