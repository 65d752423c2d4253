import { createClient, REALTIME_SUBSCRIBE_STATES, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../shared/database.types.ts';
import { NotificationSettings, type RowChange } from './background-watcher-rules.ts';
import type { WatcherBackend } from './background-watcher.ts';

export type MainSupabase = SupabaseClient<Database>;

/** The part of the vault supabase-js uses as its auth storage (the renderer's session lives there too). */
export interface AuthStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * The main process's own supabase-js client: the unmodified library, its session in the vault (shared with
 * the renderer) and refreshed automatically. `transport` is the `ws` package where the runtime has no
 * WebSocket (Node 20 in tests; Electron's Node has one).
 */
export function createMainSupabase(
  config: { supabaseUrl: string; supabaseAnonKey: string },
  storage: AuthStorage,
  transport?: unknown,
): MainSupabase {
  return createClient<Database>(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      storage,
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: false,
      flowType: 'pkce',
    },
    realtime: transport ? { transport: transport as never } : {},
  });
}

const UNRESOLVED = ['open', 'investigating'] as const;

/** The desktop watcher's realtime topic; its shape is what the database's channel policy admits. */
export const desktopTopic = (userId: string, seq: number) => `vigil-desktop-${userId}-${seq}`;

/** The watcher's backend port over supabase-js: every read runs as the user, so row-level security applies. */
export function supabaseWatcherBackend(supabase: MainSupabase, log: (m: string) => void): WatcherBackend {
  let channelSeq = 0;
  return {
    async currentSession() {
      const { data, error } = await supabase.auth.getSession();
      if (error) {
        throw error;
      }
      return data.session ? { userId: data.session.user.id, accessToken: data.session.access_token } : null;
    },
    async renewToken() {
      // With no argument realtime-js asks supabase-js for the session's current token and sends it to the
      // joined channels (supabase-js does this itself on sign-in and refresh, not after the second factor).
      await supabase.realtime.setAuth();
    },
    onAuthChange(listener) {
      const { data } = supabase.auth.onAuthStateChange((event) => {
        // supabase-js holds its auth lock during this callback: act after it returns.
        if (event !== 'INITIAL_SESSION') {
          setTimeout(listener, 0);
        }
      });
      return () => data.subscription.unsubscribe();
    },
    async subscribe(userId, onChange, onReady) {
      // The socket may have joined with an earlier user's token: take the current session's before joining.
      await supabase.realtime.setAuth();
      const filter = `user_id=eq.${userId}`;
      const deliver =
        (table: string) => (p: { eventType: RowChange['eventType']; new: object; old: object }) =>
          onChange({
            table,
            eventType: p.eventType,
            new: p.new as Record<string, unknown>,
            old: p.old as Record<string, unknown>,
          });
      // Private: only this user may join the topic and nobody may send on it (realtime.messages policies,
      // migration 20261124100002); the public topic of the same name is another channel, never this one.
      const channel = supabase
        .channel(desktopTopic(userId, ++channelSeq), { config: { private: true } })
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'scan_results', filter },
          deliver('scan_results'),
        )
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'security_events', filter },
          deliver('security_events'),
        )
        .subscribe((status, err) => {
          if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) {
            log('realtime subscribed to scan results and security events');
            onReady();
          } else if (status !== REALTIME_SUBSCRIBE_STATES.CLOSED) {
            log(`realtime ${status}${err ? `: ${err.message}` : ''}`);
          }
        });
      return async () => {
        await supabase.removeChannel(channel);
      };
    },
    async counts(userId) {
      const [scans, alerts] = await Promise.all([
        supabase
          .from('scan_results')
          .select('id', { count: 'exact', head: true })
          .eq('user_id', userId)
          .in('status', ['queued', 'in_progress']),
        supabase
          .from('security_events')
          .select('id', { count: 'exact', head: true })
          .eq('user_id', userId)
          .eq('severity', 'critical')
          .in('status', UNRESOLVED),
      ]);
      if (scans.error || alerts.error) {
        throw new Error((scans.error ?? alerts.error)?.message ?? 'count failed');
      }
      return { runningScans: scans.count ?? 0, openCriticalAlerts: alerts.count ?? 0 };
    },
    async settings(userId) {
      const { data, error } = await supabase
        .from('user_settings')
        .select('realtime_alerts, email_notifications')
        .eq('user_id', userId)
        .maybeSingle();
      if (error) {
        throw new Error(error.message);
      }
      return data ? NotificationSettings.parse(data) : null;
    },
    async signOut() {
      const { error } = await supabase.auth.signOut();
      // A session the server already ended still has to leave this machine: fall back to a local sign-out.
      if (error) {
        log(`sign-out: ${error.message}; removing the local session`);
        await supabase.auth.signOut({ scope: 'local' });
      }
    },
  };
}

/** Retries a start-up step (the backend may start after the app) with growing pauses, until it succeeds. */
export async function retrying<T>(
  what: string,
  fn: () => Promise<T>,
  log: (m: string) => void,
  delaysMs: readonly number[] = [2_000, 5_000, 15_000, 30_000, 60_000],
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const delay = delaysMs[Math.min(attempt, delaysMs.length - 1)] ?? 60_000;
      log(`${what} failed (${e instanceof Error ? e.message : String(e)}); retrying in ${delay / 1000} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** The vault as the renderer's bridge sees it, telling the watcher when the session key was written or removed. */
export function observeWrites<T extends AuthStorage>(store: T, onWrite: (key: string) => void): T {
  return {
    ...store,
    setItem(key: string, value: string) {
      store.setItem(key, value);
      onWrite(key);
    },
    removeItem(key: string) {
      store.removeItem(key);
      onWrite(key);
    },
  };
}
