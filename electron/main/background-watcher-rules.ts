import { z } from 'zod';

/**
 * What the background watcher decides, without Electron or the network: which database change becomes which
 * notification, and whether the user's settings, a pause or an earlier notification of the same thing hold
 * it back. The watcher (background-watcher.ts) feeds it realtime changes; this module only judges.
 */

const uuid = z.string().uuid();
const scanSeverity = z.enum(['critical', 'high', 'medium', 'low', 'info', 'none']);
const alertSeverity = z.enum(['critical', 'high', 'medium', 'low']);

/** The columns of a scan_results row the watcher reads (realtime rows are checked, never trusted). */
export const ScanRow = z.object({
  id: uuid,
  status: z.enum(['queued', 'in_progress', 'completed', 'failed', 'stopped']),
  severity_level: scanSeverity,
  scan_type: z.string().max(40),
  target: z.string().max(2048).nullish(),
});

export const EventRow = z.object({
  id: uuid,
  severity: alertSeverity,
  status: z.enum(['open', 'investigating', 'resolved', 'dismissed']),
  event_type: z.string().max(100),
  description: z.string(),
});

/** The user_settings columns that matter to the desktop; a missing row means the column defaults. */
export const NotificationSettings = z.object({
  realtime_alerts: z.boolean(),
  email_notifications: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;
export const DEFAULT_SETTINGS: NotificationSettings = { realtime_alerts: true, email_notifications: true };

/** One postgres_changes payload, as realtime-js delivers it. */
export interface RowChange {
  table: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Record<string, unknown>;
  old: Record<string, unknown>;
}

export interface NotificationIntent {
  /** The same key is never shown twice (a redelivered change, a reconnect). */
  key: string;
  title: string;
  body: string;
  /** The vigil:// page a click opens; the deep-link router validates it again. */
  link: string;
  urgency: 'critical' | 'normal';
}

const SCAN_TYPE_LABEL: Record<string, string> = {
  webapp: 'Web application',
  infrastructure: 'Infrastructure',
  api: 'API',
  cloud_security: 'Cloud security',
  threat_intel: 'Threat intelligence',
  siem: 'SIEM',
};

const SEVERITY_HEADLINE: Record<z.infer<typeof scanSeverity>, string> = {
  critical: 'critical findings',
  high: 'high-severity findings',
  medium: 'medium-severity findings',
  low: 'low-severity findings',
  info: 'informational findings only',
  none: 'no findings',
};

/** Notification text comes from the database: one line, no control characters, bounded. */
export function plainText(raw: string, max: number): string {
  const oneLine = raw
    // eslint-disable-next-line no-control-regex -- control and bidi characters are what this strips
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** A scan that has just reached `completed` → "Scan finished" with its severity. */
export function scanFinished(change: RowChange): NotificationIntent | null {
  if (change.table !== 'scan_results' || change.eventType !== 'UPDATE') {
    return null;
  }
  const row = ScanRow.safeParse(change.new);
  if (!row.success || row.data.status !== 'completed') {
    return null;
  }
  // With REPLICA IDENTITY FULL the old row is there: a completed scan edited again is not "finished" again.
  if (change.old.status === 'completed') {
    return null;
  }
  const { id, severity_level, scan_type, target } = row.data;
  const kind = SCAN_TYPE_LABEL[scan_type] ?? 'Security';
  return {
    key: `scan:${id}`,
    title: `Scan finished: ${SEVERITY_HEADLINE[severity_level]}`,
    body: plainText(target ? `${kind} scan of ${target}` : `${kind} scan`, 180),
    link: `vigil://dashboard/security-automation?scan=${id}`,
    urgency: severity_level === 'critical' || severity_level === 'high' ? 'critical' : 'normal',
  };
}

/** A new open critical or high security event → an alert. */
export function newAlert(change: RowChange): NotificationIntent | null {
  if (change.table !== 'security_events' || change.eventType !== 'INSERT') {
    return null;
  }
  const row = EventRow.safeParse(change.new);
  if (!row.success || row.data.status !== 'open') {
    return null;
  }
  const { id, severity, description, event_type } = row.data;
  if (severity !== 'critical' && severity !== 'high') {
    return null;
  }
  return {
    key: `event:${id}`,
    title: severity === 'critical' ? 'Critical security alert' : 'High-severity security alert',
    body: plainText(description || event_type, 180),
    link: `vigil://dashboard/alerts?event=${id}`,
    urgency: 'critical',
  };
}

export const intentFor = (change: RowChange) => scanFinished(change) ?? newAlert(change);

export const PAUSE_MS = 60 * 60 * 1000;
const REMEMBERED = 500;

/** Settings, the pause window and dedupe: the last word on whether an intent is shown. */
export function createNotificationGate(now: () => number = Date.now) {
  let pausedUntil = 0;
  const seen = new Set<string>();
  return {
    pause(ms = PAUSE_MS): number {
      pausedUntil = now() + ms;
      return pausedUntil;
    },
    resume(): void {
      pausedUntil = 0;
    },
    /** The end of the pause, or null when notifications are on. */
    pausedUntil: (): number | null => (now() < pausedUntil ? pausedUntil : null),
    admit(intent: NotificationIntent, settings: NotificationSettings): boolean {
      if (seen.has(intent.key)) {
        return false;
      }
      // Remembered even when held back, so that resuming does not replay what arrived during the pause.
      seen.add(intent.key);
      if (seen.size > REMEMBERED) {
        seen.delete(seen.values().next().value as string);
      }
      return settings.realtime_alerts && now() >= pausedUntil;
    },
  };
}
