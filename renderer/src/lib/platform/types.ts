// What the renderer needs from where it runs: the web page or the desktop app (window.vigil).
export interface Platform {
  kind: 'web' | 'desktop';
  /** Base URL that e-mail links (confirmation, password reset) return to. */
  authRedirectBase(): string;
  /** Opens a link outside the app (mail client, external site). */
  openExternal(url: string): void;
}
