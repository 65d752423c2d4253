import {
  createNotificationGate,
  DEFAULT_SETTINGS,
  intentFor,
  PAUSE_MS,
  type NotificationIntent,
  type NotificationSettings,
  type RowChange,
} from './background-watcher-rules.ts';

/** What the watcher needs of the backend (background-watcher-supabase.ts implements it with supabase-js). */
export interface WatcherBackend {
  /** The signed-in user of the shared session (the vault) and its access token, or null. */
  currentSession(): Promise<{ userId: string; accessToken: string } | null>;
  /**
   * The same user has a new token (a refresh, or the second factor passed in the window): the realtime
   * subscription takes it, as a password-only token of a user with a second factor receives nothing.
   */
  renewToken(): Promise<void>;
  /** Called on sign-in, sign-out and token refresh of this process's client. */
  onAuthChange(listener: () => void): () => void;
  /** Follows the user's scan_results and security_events; `onReady` fires on each (re)subscription. */
  subscribe(
    userId: string,
    onChange: (c: RowChange) => void,
    onReady: () => void,
  ): Promise<() => Promise<void>>;
  counts(userId: string): Promise<{ runningScans: number; openCriticalAlerts: number }>;
  settings(userId: string): Promise<NotificationSettings | null>;
  signOut(): Promise<void>;
}

export interface WatcherState {
  signedIn: boolean;
  runningScans: number;
  openCriticalAlerts: number;
  /** The end of a notification pause (epoch ms), or null. */
  pausedUntil: number | null;
}

export interface WatcherDeps {
  backend: WatcherBackend;
  notify(intent: NotificationIntent): void;
  onState(state: WatcherState): void;
  log(message: string): void;
  now?: () => number;
  /** How long user_settings are trusted before they are read again. */
  settingsTtlMs?: number;
  /** Changes arrive in bursts (a scan opens many events): counts are read once per burst. */
  recountDelayMs?: number;
}

/**
 * The main process's own view of the user's security state, kept while the window is closed: it follows
 * the shared session, subscribes to the user's rows, turns changes into notifications through the gate, and
 * reports the tray state.
 */
export function createBackgroundWatcher(deps: WatcherDeps) {
  const now = deps.now ?? Date.now;
  const gate = createNotificationGate(now);
  const ttl = deps.settingsTtlMs ?? 60_000;
  let userId: string | null = null;
  let accessToken: string | null = null;
  let unsubscribe: (() => Promise<void>) | null = null;
  let counts = { runningScans: 0, openCriticalAlerts: 0 };
  let settings: { value: NotificationSettings; at: number } | null = null;
  let recountTimer: ReturnType<typeof setTimeout> | null = null;
  let resumeTimer: ReturnType<typeof setTimeout> | null = null;
  let syncing: Promise<void> = Promise.resolve();
  let stopAuth: (() => void) | null = null;

  const state = (): WatcherState => ({
    signedIn: userId !== null,
    ...counts,
    pausedUntil: gate.pausedUntil(),
  });
  const emit = () => deps.onState(state());
  // Background work must never take the main process down: failures are logged and retried by the next event.
  const safely = (what: string, p: Promise<unknown>) =>
    void p.catch((e: unknown) => deps.log(`${what} failed: ${e instanceof Error ? e.message : String(e)}`));

  async function loadSettings(id: string): Promise<NotificationSettings> {
    if (settings && now() - settings.at < ttl) {
      return settings.value;
    }
    const value = (await deps.backend.settings(id)) ?? DEFAULT_SETTINGS;
    settings = { value, at: now() };
    return value;
  }

  async function recount(): Promise<void> {
    const id = userId;
    if (!id) {
      return;
    }
    const fresh = await deps.backend.counts(id);
    if (userId === id) {
      counts = fresh;
      emit();
    }
  }

  function scheduleRecount(): void {
    if (recountTimer) {
      return;
    }
    recountTimer = setTimeout(() => {
      recountTimer = null;
      safely('recount', recount());
    }, deps.recountDelayMs ?? 300);
  }

  async function onChange(id: string, change: RowChange): Promise<void> {
    scheduleRecount();
    const intent = intentFor(change);
    if (!intent || userId !== id) {
      return;
    }
    if (gate.admit(intent, await loadSettings(id))) {
      deps.notify(intent);
    }
  }

  async function sync(): Promise<void> {
    const session = await deps.backend.currentSession();
    const next = session?.userId ?? null;
    if (next === userId) {
      if (session && session.accessToken !== accessToken) {
        accessToken = session.accessToken;
        await deps.backend.renewToken();
        // What the earlier token could not read (its counts, its settings), this one may.
        settings = null;
        scheduleRecount();
      }
      return;
    }
    accessToken = session?.accessToken ?? null;
    const previous = unsubscribe;
    unsubscribe = null;
    userId = next;
    settings = null;
    counts = { runningScans: 0, openCriticalAlerts: 0 };
    if (previous) {
      await previous();
    }
    if (next) {
      unsubscribe = await deps.backend.subscribe(
        next,
        (c) => safely('notification', onChange(next, c)),
        () => scheduleRecount(),
      );
      await recount();
    }
    emit();
  }

  return {
    state,
    /** Starts following the session; also call `sessionChanged` when the renderer writes the vault. */
    start(): Promise<void> {
      stopAuth ??= deps.backend.onAuthChange(() => void this.sessionChanged());
      return this.sessionChanged();
    },
    /** Re-reads the shared session (serialised, so sign-in and sign-out never interleave). */
    sessionChanged(): Promise<void> {
      syncing = syncing.then(sync).catch((e: unknown) => {
        deps.log(`session sync failed: ${e instanceof Error ? e.message : String(e)}`);
      });
      return syncing;
    },
    pause(ms = PAUSE_MS): void {
      const until = gate.pause(ms);
      if (resumeTimer) {
        clearTimeout(resumeTimer);
      }
      resumeTimer = setTimeout(() => this.resume(), until - now());
      emit();
    },
    resume(): void {
      gate.resume();
      if (resumeTimer) {
        clearTimeout(resumeTimer);
        resumeTimer = null;
      }
      emit();
    },
    async signOut(): Promise<void> {
      await deps.backend.signOut();
      await this.sessionChanged();
    },
    async stop(): Promise<void> {
      stopAuth?.();
      stopAuth = null;
      for (const t of [recountTimer, resumeTimer]) {
        if (t) {
          clearTimeout(t);
        }
      }
      await syncing;
      await unsubscribe?.();
      unsubscribe = null;
      userId = null;
    },
  };
}

export type BackgroundWatcher = ReturnType<typeof createBackgroundWatcher>;
