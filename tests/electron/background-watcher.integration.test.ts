// The background watcher against the real embedded stack: the unmodified supabase-js in "the renderer" signs
// in and writes the vault; the main process's own client picks the session up from the vault, follows the
// user's rows over realtime, and notifies finished scans and critical/high alerts, as the settings allow.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { NotificationIntent } from '../../electron/main/background-watcher-rules.ts';
import {
  createMainSupabase,
  observeWrites,
  supabaseWatcherBackend,
} from '../../electron/main/background-watcher-supabase.ts';
import { createBackgroundWatcher, type WatcherState } from '../../electron/main/background-watcher.ts';
import { createVault } from '../../electron/main/vault.ts';
import type { RunningStack } from '../../server/stack.ts';
import { client, startTestStack } from '../helpers/stack.ts';

let stack: RunningStack;
const password = 'correct horse battery staple 42';

async function createUser(email: string): Promise<string> {
  const { data, error } = await client(stack, 'service_role').auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error) {
    throw error;
  }
  return data.user.id;
}

/** A vault without a keychain (memory mode): the same key checks as the desktop's, no disk. */
function memoryVault() {
  const none = {
    isEncryptionAvailable: () => false,
    encryptString: () => Buffer.alloc(0),
    decryptString: () => '',
  };
  return createVault(none, { get: () => undefined, set: () => {}, delete: () => {} });
}

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('background watcher on the embedded stack', () => {
  it('shares the renderer session through the vault and notifies what the user should hear about', async () => {
    const userId = await createUser(`watcher-${randomUUID()}@example.test`);
    const strangerId = await createUser(`stranger-${randomUUID()}@example.test`);
    const config = { supabaseUrl: stack.url, supabaseAnonKey: stack.status.anon_key };
    const vault = memoryVault();
    const notified: NotificationIntent[] = [];
    const states: WatcherState[] = [];
    const log = vi.fn();

    const main = createMainSupabase(config, vault, WebSocket);
    const watcher = createBackgroundWatcher({
      backend: supabaseWatcherBackend(main, log),
      notify: (i) => notified.push(i),
      onState: (s) => states.push(s),
      log,
      settingsTtlMs: 0,
      recountDelayMs: 50,
    });
    const renderer = createMainSupabase(
      config,
      observeWrites(vault, () => void watcher.sessionChanged()),
      WebSocket,
    );
    const admin = client(stack, 'service_role');
    try {
      await watcher.start();
      expect(watcher.state().signedIn).toBe(false);

      // The renderer signs in: the session lands in the vault and the watcher follows it.
      const signIn = await renderer.auth.signInWithPassword({
        email: (await admin.auth.admin.getUserById(userId)).data.user!.email!,
        password,
      });
      expect(signIn.error).toBeNull();
      await vi.waitFor(() => expect(watcher.state().signedIn).toBe(true), { timeout: 10_000 });
      await vi.waitFor(() => expect(main.getChannels()[0]?.state).toBe('joined'), { timeout: 10_000 });

      // A scan starts: the tray counts it.
      const scan = await admin
        .from('scan_results')
        .insert({
          user_id: userId,
          scan_type: 'webapp',
          status: 'in_progress',
          target: 'https://shop.example',
        })
        .select('id')
        .single();
      expect(scan.error).toBeNull();
      await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ runningScans: 1 }), { timeout: 10_000 });

      // It finishes with high findings: one notification with the severity, opening the scan.
      await admin
        .from('scan_results')
        .update({ status: 'completed', severity_level: 'high' })
        .eq('id', scan.data!.id);
      await vi.waitFor(() => expect(notified).toHaveLength(1), { timeout: 10_000 });
      expect(notified[0]).toMatchObject({
        title: 'Scan finished: high-severity findings',
        link: `vigil://dashboard/security-automation?scan=${scan.data!.id}`,
      });
      await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ runningScans: 0 }), { timeout: 10_000 });

      // A medium event is not worth a notification; a critical one is, and the tray counts it.
      const event = (severity: string, user = userId) =>
        admin
          .from('security_events')
          .insert({ user_id: user, event_type: 'sql_injection', description: `SQLi (${severity})`, severity })
          .select('id')
          .single();
      await event('medium');
      const critical = await event('critical');
      await vi.waitFor(() => expect(notified).toHaveLength(2), { timeout: 10_000 });
      expect(notified[1]).toMatchObject({
        title: 'Critical security alert',
        body: 'SQLi (critical)',
        link: `vigil://dashboard/alerts?event=${critical.data!.id}`,
      });
      await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ openCriticalAlerts: 1 }), {
        timeout: 10_000,
      });

      // Another customer's critical event never reaches this user (row-level security on realtime).
      await event('critical', strangerId);
      // The user turns realtime alerts off: a new high event is counted but not shown.
      await admin.from('user_settings').update({ realtime_alerts: false }).eq('user_id', userId);
      await event('high');
      // A marker after both: once it is counted, the earlier changes have been delivered (or withheld).
      await event('critical');
      await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ openCriticalAlerts: 2 }), {
        timeout: 10_000,
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(notified).toHaveLength(2);

      // The renderer signs out: the vault is emptied and the watcher goes to "signed out".
      await renderer.auth.signOut();
      await vi.waitFor(() => expect(watcher.state().signedIn).toBe(false), { timeout: 10_000 });
      expect(states.at(-1)).toMatchObject({ signedIn: false, runningScans: 0, openCriticalAlerts: 0 });
      expect(JSON.stringify(log.mock.calls)).not.toContain(signIn.data.session!.access_token);
    } finally {
      await watcher.stop();
      await main.auth.stopAutoRefresh();
      await renderer.auth.stopAutoRefresh();
      await main.removeAllChannels();
      await renderer.removeAllChannels();
    }
  });
});
