/** The parts of Electron's app and BrowserWindow that close-to-tray needs (passed in; tested without Electron). */
export interface CloseAppLike {
  on(event: 'before-quit', listener: () => void): void;
  on(event: 'activate', listener: () => void): void;
}
export interface ClosableWindowLike {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): void;
  hide(): void;
}

export interface CloseToTrayDeps {
  app: CloseAppLike;
  window: ClosableWindowLike;
  platform: NodeJS.Platform;
  /** Shows the window again (the dock icon on macOS). */
  show(): void;
  /** Told once, the first time the window goes to the tray (to say that Vigil is still running). */
  onFirstHide?(): void;
}

/**
 * Closing the window hides it and Vigil keeps watching from the tray; only Quit (menu, tray, Cmd+Q, or the
 * system shutting down) really quits. On macOS clicking the dock icon brings the window back, as there.
 */
export function enableCloseToTray(deps: CloseToTrayDeps) {
  let quitting = false;
  let toldOnce = false;
  deps.app.on('before-quit', () => {
    quitting = true;
  });
  deps.window.on('close', (event) => {
    if (quitting) {
      return;
    }
    event.preventDefault();
    deps.window.hide();
    if (!toldOnce) {
      toldOnce = true;
      deps.onFirstHide?.();
    }
  });
  if (deps.platform === 'darwin') {
    deps.app.on('activate', () => deps.show());
  }
  return {
    isQuitting: () => quitting,
    /** For Quit from the tray: lets the window close instead of hiding. */
    markQuitting(): void {
      quitting = true;
    },
  };
}
