// What the renderer needs from where it runs: the web page or the desktop app (window.vigil).

/** supabase-js's auth storage (SupportedStorage): the desktop keeps the session in the main process's vault. */
export interface AuthStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export interface SaveResult {
  saved: boolean;
  path?: string;
}

export interface Platform {
  kind: 'web' | 'desktop';
  /** Base URL that e-mail links (confirmation, password reset) return to. */
  authRedirectBase(): string;
  /** Opens a link outside the app (mail client, external site). */
  openExternal(url: string): void;
  /** The raw backend config from the desktop's main process; null on the web, which fetches /config.json. */
  runtimeConfig: (() => Promise<unknown>) | null;
  /** Where supabase-js keeps the session; null means its default (the page's local storage). */
  authStorage: AuthStorage | null;
  /** Follows navigation requests from outside the page (desktop deep links); returns the unsubscribe. */
  onNavigate(navigate: (path: string) => void): () => void;
  /** Saves a report file (a signed storage URL) where the person chooses. */
  saveReport(url: string, suggestedName: string): Promise<SaveResult>;
  /** The web app's origin, where WebAuthn ceremonies can run; null when the desktop was not told it. */
  webUrl(): Promise<string | null>;
  /** Opens `url` in the system browser; false when it was refused or could not be opened. */
  openInBrowser(url: string): Promise<boolean>;
  /** Follows the biometric hand-off's answers (vigil://auth/webauthn links); returns the unsubscribe. */
  onRelayResult(listener: (params: Record<string, string>) => void): () => void;
}

/**
 * The desktop bridge as the renderer uses it. The preload (electron/preload/index.ts) defines the real one;
 * the web tsconfig cannot load Electron's types, so tests/e2e/desktop-adapter.e2e.test.ts proves at compile
 * time that the preload's `VigilBridge` satisfies this interface.
 */
export interface DesktopBridge {
  config(): Promise<unknown>;
  vault: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
  };
  openExternal(url: string): Promise<boolean>;
  saveReport(url: string, suggestedName: string): Promise<SaveResult>;
  onDeepLink(listener: (message: { route: string; params: Record<string, string> }) => void): () => void;
}
