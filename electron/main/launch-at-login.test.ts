import { describe, expect, it, vi } from 'vitest';
import { autostartEntry, createLaunchAtLogin, desktopExec } from './launch-at-login.ts';

function setup(platform: NodeJS.Platform) {
  const files = new Map<string, string>();
  const app = {
    settings: { openAtLogin: false, wasOpenedAtLogin: false },
    getLoginItemSettings: vi.fn(() => app.settings),
    setLoginItemSettings: vi.fn(
      (s: { openAtLogin: boolean }) => void (app.settings.openAtLogin = s.openAtLogin),
    ),
  };
  const l = createLaunchAtLogin({
    app,
    platform,
    executable: '/opt/Vigil/vigil',
    configHome: '/home/u/.config',
    fs: {
      exists: (f) => files.has(f),
      write: (f, c) => void files.set(f, c),
      remove: (f) => void files.delete(f),
    },
  });
  return { l, app, files };
}

describe('launch at login', () => {
  it('macOS and Windows: the login item, started hidden in the tray', () => {
    const { l, app } = setup('win32');
    expect(l.isEnabled()).toBe(false);
    l.setEnabled(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true, args: ['--hidden'] });
    expect(l.isEnabled()).toBe(true);
    l.setEnabled(false);
    expect(l.isEnabled()).toBe(false);
  });

  it('Linux: an XDG autostart entry', () => {
    const { l, app, files } = setup('linux');
    l.setEnabled(true);
    expect(files.get('/home/u/.config/autostart/vigil.desktop')).toContain(
      'Exec="/opt/Vigil/vigil" --hidden',
    );
    expect(l.isEnabled()).toBe(true);
    l.setEnabled(false);
    expect(files.size).toBe(0);
    expect(app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('knows a start from the login item', () => {
    expect(setup('linux').l.startedAtLogin(['vigil', '--hidden'])).toBe(true);
    expect(setup('linux').l.startedAtLogin(['vigil'])).toBe(false);
    const mac = setup('darwin');
    mac.app.settings.wasOpenedAtLogin = true;
    expect(mac.l.startedAtLogin(['Vigil'])).toBe(true);
  });

  it('hostile executable paths cannot add lines or run shell expansions in the desktop entry', () => {
    expect(() => autostartEntry('/tmp/x\nExec=rm -rf ~')).toThrow();
    expect(desktopExec('/tmp/a "b" $(id) `id` 100%')).toBe(
      '"/tmp/a \\"b\\" \\$(id) \\`id\\` 100%%" --hidden',
    );
  });
});
