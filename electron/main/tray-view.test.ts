import { describe, expect, it } from 'vitest';
import { trayIcon, trayView, type TrayInput } from './tray-view.ts';

const base: TrayInput = {
  signedIn: true,
  runningScans: 0,
  openCriticalAlerts: 0,
  pausedUntil: null,
  launchAtLogin: false,
  formatTime: () => '14:05',
};
const labels = (i: TrayInput) => trayView(i).menu.map((m) => ('label' in m ? m.label : '—'));

describe('tray view', () => {
  it('picks the icon: signed out > critical > scanning > protected', () => {
    expect(trayIcon({ ...base, signedIn: false, openCriticalAlerts: 3, runningScans: 1 })).toBe('signed-out');
    expect(trayIcon({ ...base, openCriticalAlerts: 1, runningScans: 1 })).toBe('critical');
    expect(trayIcon({ ...base, runningScans: 2 })).toBe('scanning');
    expect(trayIcon(base)).toBe('protected');
  });

  it('protected: tooltip and the full menu', () => {
    const v = trayView(base);
    expect(v.tooltip).toBe('Vigil — Protected: no critical alerts');
    expect(labels(base)).toEqual([
      'Open Vigil',
      'Protected: no critical alerts',
      '—',
      'Run a scan now',
      'Open alerts',
      'Pause notifications for an hour',
      '—',
      'Launch at login',
      'Sign out',
      '—',
      'Quit Vigil',
    ]);
  });

  it('critical alerts and scans are counted; pause shows a resume item with the time', () => {
    const input = { ...base, openCriticalAlerts: 3, runningScans: 1, pausedUntil: 1 };
    const v = trayView(input);
    expect(v.icon).toBe('critical');
    expect(v.tooltip).toBe('Vigil — 3 critical alerts open — Notifications paused until 14:05');
    expect(labels(input)).toContain('Open alerts (3)');
    expect(labels(input)).toContain('Resume notifications (notifications paused until 14:05)');
    expect(trayView({ ...base, runningScans: 1 }).tooltip).toBe('Vigil — 1 scan running');
    expect(trayView({ ...base, openCriticalAlerts: 1 }).tooltip).toBe('Vigil — 1 critical alert open');
  });

  it('signed out: only open, sign in, launch at login and quit', () => {
    const input = { ...base, signedIn: false, openCriticalAlerts: 9 };
    expect(labels(input)).toEqual([
      'Open Vigil',
      'Signed out',
      '—',
      'Sign in…',
      '—',
      'Launch at login',
      '—',
      'Quit Vigil',
    ]);
  });

  it('the launch-at-login item is a checkbox that mirrors the setting', () => {
    const item = trayView({ ...base, launchAtLogin: true }).menu.find((m) => m.type === 'checkbox');
    expect(item).toMatchObject({ checked: true, action: 'toggle-launch-at-login' });
  });
});
