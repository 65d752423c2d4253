import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationSettings, RowChange } from './background-watcher-rules.ts';
import { createBackgroundWatcher, type WatcherBackend, type WatcherState } from './background-watcher.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const ID = '6f1c1a34-3d5b-4a47-9a53-0c9a0f5a9d11';

/** A backend whose session, rows and settings the test sets; it records subscriptions. */
function fakeBackend() {
  const b = {
    user: null as string | null,
    token: 'token-1',
    renewals: 0,
    settings: null as NotificationSettings | null,
    counts: { runningScans: 0, openCriticalAlerts: 0 },
    subscriptions: [] as {
      userId: string;
      onChange: (c: RowChange) => void;
      onReady: () => void;
      closed: boolean;
    }[],
    authListener: null as null | (() => void),
    signOuts: 0,
  };
  const backend: WatcherBackend = {
    currentSession: () => Promise.resolve(b.user ? { userId: b.user, accessToken: b.token } : null),
    renewToken: () => Promise.resolve(void b.renewals++),
    onAuthChange: (l) => ((b.authListener = l), () => (b.authListener = null)),
    subscribe: (userId, onChange, onReady) => {
      const sub = { userId, onChange, onReady, closed: false };
      b.subscriptions.push(sub);
      return Promise.resolve(() => Promise.resolve(void (sub.closed = true)));
    },
    counts: () => Promise.resolve(b.counts),
    settings: () => Promise.resolve(b.settings),
    signOut: () => {
      b.signOuts++;
      b.user = null;
      return Promise.resolve();
    },
  };
  return { b, backend };
}

const finished = (id = ID): RowChange => ({
  table: 'scan_results',
  eventType: 'UPDATE',
  new: { id, status: 'completed', severity_level: 'critical', scan_type: 'api', target: 'api.example' },
  old: { status: 'in_progress' },
});

function setup() {
  const { b, backend } = fakeBackend();
  const notify = vi.fn();
  const states: WatcherState[] = [];
  const log = vi.fn();
  const watcher = createBackgroundWatcher({
    backend,
    notify,
    onState: (s) => states.push(s),
    log,
    recountDelayMs: 5,
  });
  return { b, watcher, notify, states, log };
}

afterEach(() => vi.useRealTimers());

describe('background watcher', () => {
  it('signed out: no subscription, tray state signed out', async () => {
    const { b, watcher } = setup();
    await watcher.start();
    expect(b.subscriptions).toHaveLength(0);
    expect(watcher.state()).toEqual({
      signedIn: false,
      runningScans: 0,
      openCriticalAlerts: 0,
      pausedUntil: null,
    });
  });

  it('follows the shared session: subscribes to the user, reads counts, notifies a finished scan once', async () => {
    const { b, watcher, notify, states } = setup();
    b.user = USER;
    b.counts = { runningScans: 2, openCriticalAlerts: 1 };
    await watcher.start();
    expect(b.subscriptions.map((s) => s.userId)).toEqual([USER]);
    expect(states.at(-1)).toMatchObject({ signedIn: true, runningScans: 2, openCriticalAlerts: 1 });
    // The scan finished: the next count has no running scan.
    b.counts = { runningScans: 0, openCriticalAlerts: 1 };
    b.subscriptions[0]!.onChange(finished());
    b.subscriptions[0]!.onChange(finished());
    await vi.waitFor(() => expect(notify).toHaveBeenCalledTimes(1));
    expect(notify.mock.calls[0]![0]).toMatchObject({ title: 'Scan finished: critical findings' });
    // A change also refreshes the counts for the tray.
    await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ runningScans: 0 }));
  });

  it('honours the user setting realtime_alerts = false', async () => {
    const { b, watcher, notify } = setup();
    b.user = USER;
    b.settings = { realtime_alerts: false, email_notifications: true };
    await watcher.start();
    b.subscriptions[0]!.onChange(finished());
    await new Promise((r) => setTimeout(r, 20));
    expect(notify).not.toHaveBeenCalled();
  });

  it('a pause holds notifications for an hour and ends by itself', async () => {
    vi.useFakeTimers({ now: 0 });
    const { b, watcher, notify, states } = setup();
    b.user = USER;
    await watcher.start();
    watcher.pause();
    expect(states.at(-1)!.pausedUntil).toBe(3_600_000);
    b.subscriptions[0]!.onChange(finished());
    await vi.advanceTimersByTimeAsync(10);
    expect(notify).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(watcher.state().pausedUntil).toBeNull();
    expect(states.at(-1)!.pausedUntil).toBeNull();
    b.subscriptions[0]!.onChange(finished(OTHER));
    await vi.advanceTimersByTimeAsync(10);
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('a new token of the same user (the second factor passed in the window) reaches realtime and recounts', async () => {
    const { b, watcher, states } = setup();
    b.user = USER;
    // Password only: row-level security shows this token nothing of a user with a second factor.
    b.counts = { runningScans: 0, openCriticalAlerts: 0 };
    await watcher.start();
    expect(b.renewals).toBe(0);
    b.token = 'token-aal2';
    b.counts = { runningScans: 1, openCriticalAlerts: 3 };
    await watcher.sessionChanged();
    expect(b.renewals).toBe(1);
    // The same subscription continues with the new token; nothing is re-joined.
    expect(b.subscriptions.map((s) => s.closed)).toEqual([false]);
    await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ runningScans: 1, openCriticalAlerts: 3 }));
    // The same token again (any other vault write) changes nothing.
    await watcher.sessionChanged();
    expect(b.renewals).toBe(1);
  });

  it('switching users closes the old subscription and drops its late changes', async () => {
    const { b, watcher, notify } = setup();
    b.user = USER;
    await watcher.start();
    const first = b.subscriptions[0]!;
    b.user = OTHER;
    await watcher.sessionChanged();
    expect(first.closed).toBe(true);
    expect(b.subscriptions.at(-1)!.userId).toBe(OTHER);
    first.onChange(finished());
    await new Promise((r) => setTimeout(r, 20));
    expect(notify).not.toHaveBeenCalled();
  });

  it('the auth listener of its own client (refresh, sign-out elsewhere) re-reads the session', async () => {
    const { b, watcher, states } = setup();
    b.user = USER;
    await watcher.start();
    b.user = null;
    b.authListener!();
    await vi.waitFor(() => expect(states.at(-1)!.signedIn).toBe(false));
  });

  it('sign out from the tray ends the session and the subscription', async () => {
    const { b, watcher } = setup();
    b.user = USER;
    await watcher.start();
    await watcher.signOut();
    expect(b.signOuts).toBe(1);
    expect(b.subscriptions[0]!.closed).toBe(true);
    expect(watcher.state().signedIn).toBe(false);
  });

  it('backend failures are logged, never thrown into the main process', async () => {
    const log = vi.fn();
    const { backend } = fakeBackend();
    const broken = createBackgroundWatcher({
      backend: { ...backend, currentSession: () => Promise.reject(new Error('network down')) },
      notify: vi.fn(),
      onState: vi.fn(),
      log,
    });
    await expect(broken.start()).resolves.toBeUndefined();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('network down'));
    // Counts that cannot be read after a change are logged too, and the watcher keeps its last state.
    const { b, backend: b2 } = fakeBackend();
    b.user = USER;
    const w = createBackgroundWatcher({
      backend: {
        ...b2,
        counts: () => Promise.reject(new Error('rest down')),
        settings: () => Promise.reject(new Error('x')),
      },
      notify: vi.fn(),
      onState: vi.fn(),
      log,
      recountDelayMs: 1,
    });
    await w.start();
    b.subscriptions[0]?.onChange(finished());
    await vi.waitFor(() =>
      expect(log).toHaveBeenCalledWith(expect.stringContaining('notification failed: x')),
    );
  });

  it('stop closes the subscription and the timers', async () => {
    const { b, watcher } = setup();
    b.user = USER;
    await watcher.start();
    watcher.pause();
    await watcher.stop();
    expect(b.subscriptions[0]!.closed).toBe(true);
    expect(b.authListener).toBeNull();
  });
});
