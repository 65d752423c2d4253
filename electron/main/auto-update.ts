/** The parts of electron-updater's autoUpdater used here (passed in; tested without Electron). */
export interface AutoUpdaterLike {
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdatesAndNotify(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface AutoUpdateDeps {
  autoUpdater: AutoUpdaterLike;
  /** app.isPackaged: development runs never update themselves. */
  isPackaged: boolean;
  env: Record<string, string | undefined>;
  log(message: string): void;
}

/**
 * Checks for a new version when Vigil runs packaged. The feed is the `publish` entry baked into the build
 * (electron-builder.yml, from VIGIL_UPDATE_URL at packaging time); VIGIL_UPDATE_URL at run time overrides it.
 * Updates are only ever fetched over https.
 */
export async function checkForUpdates(deps: AutoUpdateDeps): Promise<'skipped' | 'checked' | 'failed'> {
  if (!deps.isPackaged) {
    deps.log('auto-update: off in development');
    return 'skipped';
  }
  const override = deps.env.VIGIL_UPDATE_URL;
  if (override) {
    let url: URL;
    try {
      url = new URL(override);
    } catch {
      deps.log('auto-update: VIGIL_UPDATE_URL is not a URL; not checking');
      return 'skipped';
    }
    // An update is code that runs with the user's rights: never from a feed an attacker on the path could swap.
    if (url.protocol !== 'https:') {
      deps.log('auto-update: VIGIL_UPDATE_URL must be https; not checking');
      return 'skipped';
    }
    deps.autoUpdater.setFeedURL({ provider: 'generic', url: url.href });
  }
  deps.autoUpdater.on('error', (e) => deps.log(`auto-update: ${e.message}`));
  try {
    await deps.autoUpdater.checkForUpdatesAndNotify();
    return 'checked';
  } catch (e) {
    // No feed configured in this build, offline, or an unsigned build on macOS: the app runs on regardless.
    deps.log(`auto-update: ${e instanceof Error ? e.message : String(e)}`);
    return 'failed';
  }
}
