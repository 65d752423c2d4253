// What every module of the main process starts from: the desktop's settings, the backend's URLs, the
// app's folders, the log, and whether Vigil launches at login.
import path from 'node:path';
import { app, dialog } from 'electron';
import { DesktopSettings, readSettings } from '../../../shared/settings.ts';
import { apiUrlFromEnv, webUrlFromEnv } from '../backend-config.ts';
import { createLaunchAtLogin, nodeAutostartFs } from '../launch-at-login.ts';
import { DEFAULT_EXTERNAL_ORIGINS } from '../security-rules.ts';

export interface MainContext {
  settings: DesktopSettings;
  apiUrl: string;
  /** Origins the app may open in the system browser. */
  externalOrigins: string[];
  webUrl: string | null;
  distDir: string;
  /** The renderer's build, served on the app scheme. */
  webDir: string;
  resourcesDir: string;
  log: (message: string) => void;
  launchAtLogin: ReturnType<typeof createLaunchAtLogin>;
}

/** The desktop's settings (shared/settings.ts), parsed once: a value that means nothing stops Vigil at start. */
function desktopSettings(): DesktopSettings {
  try {
    return readSettings(DesktopSettings, process.env);
  } catch (e) {
    dialog.showErrorBox('Vigil cannot start', e instanceof Error ? e.message : String(e));
    app.exit(1);
    throw e;
  }
}

export function createMainContext(): MainContext {
  const distDir = path.join(app.getAppPath(), 'dist');
  const settings = desktopSettings();
  const apiUrl = apiUrlFromEnv(settings);
  return {
    settings,
    apiUrl,
    externalOrigins: [...DEFAULT_EXTERNAL_ORIGINS, apiUrl],
    webUrl: webUrlFromEnv(settings, apiUrl),
    distDir,
    webDir: path.join(distDir, 'web'),
    resourcesDir: app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'resources'),
    log: (m) => console.log(`[vigil] ${m}`),
    launchAtLogin: createLaunchAtLogin({
      app,
      platform: process.platform,
      executable: process.env.APPIMAGE ?? process.execPath,
      configHome: process.env.XDG_CONFIG_HOME ?? path.join(app.getPath('home'), '.config'),
      fs: nodeAutostartFs,
    }),
  };
}
