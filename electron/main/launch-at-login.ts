import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The parts of Electron's app that launch-at-login uses (macOS and Windows have it built in). */
export interface LoginItemAppLike {
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean; wasOpenedAtLogin?: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[]; path?: string }): void;
}

/** The file operations the Linux autostart entry needs. */
export interface AutostartFs {
  exists(file: string): boolean;
  write(file: string, content: string): void;
  remove(file: string): void;
}

export interface LaunchAtLoginDeps {
  app: LoginItemAppLike;
  platform: NodeJS.Platform;
  /** The command that starts Vigil: the AppImage path when run from one, else the executable. */
  executable: string;
  /** XDG config home (Linux): the entry goes to <configHome>/autostart/vigil.desktop. */
  configHome: string;
  fs: AutostartFs;
}

export const nodeAutostartFs: AutostartFs = {
  exists: existsSync,
  write(file, content) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content, { mode: 0o644 });
  },
  remove: (file) => rmSync(file, { force: true }),
};

/** Started at login, Vigil opens in the tray without showing its window. */
export const HIDDEN_ARG = '--hidden';

/** A desktop entry's Exec line: quoted, with the characters the spec reserves escaped. */
export function desktopExec(executable: string): string {
  if (/[\n\r]/.test(executable)) {
    throw new Error('The executable path contains a line break.');
  }
  const quoted = `"${executable.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
  return `${quoted.replace(/%/g, '%%')} ${HIDDEN_ARG}`;
}

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Vigil',
    'Comment=Vigil security agents (starts in the tray)',
    `Exec=${desktopExec(executable)}`,
    'Icon=vigil',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * "Launch at login": app.setLoginItemSettings on macOS and Windows; on Linux, where Electron has no such
 * call, an XDG autostart entry (what desktop environments read at login).
 */
export function createLaunchAtLogin(deps: LaunchAtLoginDeps) {
  const entry = path.join(deps.configHome, 'autostart', 'vigil.desktop');
  const args = [HIDDEN_ARG];
  return {
    isEnabled(): boolean {
      if (deps.platform === 'linux') {
        return deps.fs.exists(entry);
      }
      return deps.app.getLoginItemSettings({ args }).openAtLogin;
    },
    setEnabled(enabled: boolean): void {
      if (deps.platform === 'linux') {
        if (enabled) {
          deps.fs.write(entry, autostartEntry(deps.executable));
        } else if (deps.fs.exists(entry)) {
          deps.fs.remove(entry);
        }
        return;
      }
      deps.app.setLoginItemSettings({ openAtLogin: enabled, args });
    },
    /** True when this start came from the login item (then the window stays hidden). */
    startedAtLogin(argv: readonly string[]): boolean {
      return (
        argv.includes(HIDDEN_ARG) ||
        (deps.platform === 'darwin' && deps.app.getLoginItemSettings().wasOpenedAtLogin === true)
      );
    },
  };
}
