import { describe, expect, it } from 'vitest';
import {
  createNotificationGate,
  DEFAULT_SETTINGS,
  intentFor,
  newAlert,
  plainText,
  scanFinished,
  type RowChange,
} from './background-watcher-rules.ts';
import { parseDeepLink } from '../../shared/deep-links.ts';

const ID = '6f1c1a34-3d5b-4a47-9a53-0c9a0f5a9d11';
const scan = (
  status: string,
  old: Record<string, unknown> = { status: 'in_progress' },
  extra = {},
): RowChange => ({
  table: 'scan_results',
  eventType: 'UPDATE',
  new: {
    id: ID,
    status,
    severity_level: 'high',
    scan_type: 'webapp',
    target: 'https://shop.example',
    ...extra,
  },
  old,
});
const event = (severity: string, extra = {}): RowChange => ({
  table: 'security_events',
  eventType: 'INSERT',
  new: {
    id: ID,
    severity,
    status: 'open',
    event_type: 'sql_injection',
    description: 'SQL injection in /login',
    ...extra,
  },
  old: {},
});

describe('which change becomes which notification', () => {
  it('a scan reaching completed → "Scan finished" with its severity, opening the scan', () => {
    const intent = scanFinished(scan('completed'))!;
    expect(intent).toMatchObject({
      key: `scan:${ID}`,
      title: 'Scan finished: high-severity findings',
      body: 'Web application scan of https://shop.example',
      urgency: 'critical',
    });
    expect(parseDeepLink(intent.link)).toEqual({
      ok: true,
      message: { route: '/dashboard/security-automation', params: { scan: ID } },
    });
    expect(scanFinished(scan('completed', {}, { severity_level: 'none' }))!.title).toBe(
      'Scan finished: no findings',
    );
  });

  it('ignores other scan transitions, re-edits of a completed scan, and inserts', () => {
    expect(scanFinished(scan('in_progress'))).toBeNull();
    expect(scanFinished(scan('failed'))).toBeNull();
    expect(scanFinished(scan('completed', { status: 'completed' }))).toBeNull();
    expect(scanFinished({ ...scan('completed'), eventType: 'INSERT' })).toBeNull();
    expect(scanFinished({ ...scan('completed'), table: 'security_events' })).toBeNull();
  });

  it('critical and high open events → an alert opening the event; medium, low and closed ones do not', () => {
    const critical = newAlert(event('critical'))!;
    expect(critical).toMatchObject({ title: 'Critical security alert', body: 'SQL injection in /login' });
    expect(parseDeepLink(critical.link)).toEqual({
      ok: true,
      message: { route: '/dashboard/alerts', params: { event: ID } },
    });
    expect(newAlert(event('high'))!.title).toBe('High-severity security alert');
    expect(newAlert(event('medium'))).toBeNull();
    expect(newAlert(event('low'))).toBeNull();
    expect(newAlert(event('critical', { status: 'resolved' }))).toBeNull();
    expect(newAlert({ ...event('critical'), eventType: 'UPDATE' })).toBeNull();
  });

  it('hostile rows: bad ids, unknown enums and missing fields yield nothing; text is one bounded line', () => {
    expect(intentFor(event('critical', { id: '../../settings' }))).toBeNull();
    expect(intentFor(event('critical', { id: `${ID}&x=1` }))).toBeNull();
    expect(intentFor(event('catastrophic'))).toBeNull();
    expect(intentFor(scan('completed', {}, { severity_level: undefined }))).toBeNull();
    expect(intentFor({ table: 'scan_results', eventType: 'UPDATE', new: {}, old: {} })).toBeNull();
    const body = newAlert(
      event('critical', { description: `line1\nline2\u202e\u0007${'x'.repeat(500)}` }),
    )!.body;
    for (const c of ['\n', '\u202e', '\u0007']) {
      expect(body).not.toContain(c);
    }
    expect(body.length).toBeLessThanOrEqual(180);
    expect(plainText('  a\r\nb  ', 10)).toBe('a b');
  });
});

describe('notification gate', () => {
  const intent = scanFinished(scan('completed'))!;

  it('shows each thing once', () => {
    const gate = createNotificationGate(() => 0);
    expect(gate.admit(intent, DEFAULT_SETTINGS)).toBe(true);
    expect(gate.admit(intent, DEFAULT_SETTINGS)).toBe(false);
  });

  it('honours realtime_alerts = false', () => {
    const gate = createNotificationGate(() => 0);
    expect(gate.admit(intent, { ...DEFAULT_SETTINGS, realtime_alerts: false })).toBe(false);
  });

  it('holds notifications during a pause of an hour, does not replay them, and lets new ones through after', () => {
    let t = 1_000;
    const gate = createNotificationGate(() => t);
    expect(gate.pause()).toBe(1_000 + 3_600_000);
    expect(gate.pausedUntil()).toBe(3_601_000);
    expect(gate.admit(intent, DEFAULT_SETTINGS)).toBe(false);
    t += 3_600_000;
    expect(gate.pausedUntil()).toBeNull();
    expect(gate.admit(intent, DEFAULT_SETTINGS)).toBe(false);
    expect(gate.admit({ ...intent, key: 'scan:other' }, DEFAULT_SETTINGS)).toBe(true);
  });

  it('resume ends a pause at once', () => {
    const gate = createNotificationGate(() => 0);
    gate.pause();
    gate.resume();
    expect(gate.pausedUntil()).toBeNull();
    expect(gate.admit(intent, DEFAULT_SETTINGS)).toBe(true);
  });

  it('remembers a bounded number of keys (a flood cannot grow memory without end)', () => {
    const gate = createNotificationGate(() => 0);
    for (let i = 0; i < 2_000; i++) {
      gate.admit({ ...intent, key: `k${i}` }, DEFAULT_SETTINGS);
    }
    // The oldest keys were forgotten; the newest are still remembered.
    expect(gate.admit({ ...intent, key: 'k0' }, DEFAULT_SETTINGS)).toBe(true);
    expect(gate.admit({ ...intent, key: 'k1999' }, DEFAULT_SETTINGS)).toBe(false);
  });
});
