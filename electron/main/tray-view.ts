import type { WatcherState } from './background-watcher.ts';

export type TrayIconKind = 'protected' | 'scanning' | 'critical' | 'signed-out';

/** The tray's actions; each menu item calls one of these. */
export type TrayAction =
  | 'open'
  | 'run-scan'
  | 'open-alerts'
  | 'pause'
  | 'resume'
  | 'toggle-launch-at-login'
  | 'sign-in'
  | 'sign-out'
  | 'quit';

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'label'; label: string }
  | { type: 'action'; label: string; action: TrayAction; enabled?: boolean }
  | { type: 'checkbox'; label: string; action: TrayAction; checked: boolean };

export interface TrayView {
  icon: TrayIconKind;
  tooltip: string;
  menu: TrayMenuItem[];
}

export interface TrayInput extends WatcherState {
  launchAtLogin: boolean;
  /** Formats the end of a pause as the user's local time. */
  formatTime(epochMs: number): string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Which icon wins: signed out, then critical alerts, then a running scan, else protected. */
export function trayIcon(s: WatcherState): TrayIconKind {
  if (!s.signedIn) {
    return 'signed-out';
  }
  if (s.openCriticalAlerts > 0) {
    return 'critical';
  }
  return s.runningScans > 0 ? 'scanning' : 'protected';
}

function statusLine(s: WatcherState): string {
  switch (trayIcon(s)) {
    case 'signed-out':
      return 'Signed out';
    case 'critical':
      return `${plural(s.openCriticalAlerts, 'critical alert', 'critical alerts')} open`;
    case 'scanning':
      return `${plural(s.runningScans, 'scan', 'scans')} running`;
    case 'protected':
      return 'Protected: no critical alerts';
  }
}

/** The tray's icon, tooltip and menu for a state: a pure function, so every state is tested. */
export function trayView(input: TrayInput): TrayView {
  const status = statusLine(input);
  const pausedNote = input.pausedUntil
    ? `Notifications paused until ${input.formatTime(input.pausedUntil)}`
    : null;
  const tooltip = ['Vigil', status, ...(pausedNote ? [pausedNote] : [])].join(' — ');
  const alerts = input.signedIn && input.openCriticalAlerts > 0 ? ` (${input.openCriticalAlerts})` : '';
  const menu: TrayMenuItem[] = [
    { type: 'action', label: 'Open Vigil', action: 'open' },
    { type: 'label', label: status },
    { type: 'separator' },
  ];
  if (input.signedIn) {
    menu.push(
      { type: 'action', label: 'Run a scan now', action: 'run-scan' },
      { type: 'action', label: `Open alerts${alerts}`, action: 'open-alerts' },
      pausedNote
        ? { type: 'action', label: `Resume notifications (${pausedNote.toLowerCase()})`, action: 'resume' }
        : { type: 'action', label: 'Pause notifications for an hour', action: 'pause' },
    );
  } else {
    menu.push({ type: 'action', label: 'Sign in…', action: 'sign-in' });
  }
  menu.push(
    { type: 'separator' },
    {
      type: 'checkbox',
      label: 'Launch at login',
      action: 'toggle-launch-at-login',
      checked: input.launchAtLogin,
    },
  );
  if (input.signedIn) {
    menu.push({ type: 'action', label: 'Sign out', action: 'sign-out' });
  }
  menu.push({ type: 'separator' }, { type: 'action', label: 'Quit Vigil', action: 'quit' });
  return { icon: trayIcon(input), tooltip, menu };
}
