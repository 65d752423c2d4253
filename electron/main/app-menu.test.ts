import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { appMenuTemplate } from './app-menu.ts';

const API = 'http://127.0.0.1:54321';

function build(platform: NodeJS.Platform, externalOrigins: string[] = [API], isDev = false) {
  const deps = { openExternal: vi.fn(() => Promise.resolve()), openLink: vi.fn(), log: vi.fn() };
  const menu = appMenuTemplate({ platform, apiUrl: API, externalOrigins, isDev, ...deps });
  return { menu, ...deps };
}
const sub = (m: MenuItemConstructorOptions) => m.submenu as MenuItemConstructorOptions[];

describe('application menu', () => {
  it('macOS has the app menu with standard roles; others put Settings and Quit in File', () => {
    const mac = build('darwin').menu;
    expect(mac[0]!.role).toBe('appMenu');
    expect(sub(mac[0]!).map((i) => i.role ?? i.label)).toContain('quit');
    const win = build('win32').menu;
    expect(win[0]!.role).toBe('fileMenu');
    expect(sub(win[0]!).map((i) => i.role ?? i.label)).toEqual(['Settings', undefined, 'close', 'quit']);
    expect(win.map((m) => m.role ?? m.label)).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
  });

  it('Help links open in the browser only when on the external allow-list', () => {
    const { menu, openExternal } = build('linux');
    const help = sub(menu.at(-1)!);
    expect(help.map((h) => h.label)).toEqual(['Vigil Support', 'Privacy Policy', 'Terms of Service']);
    (help[0]!.click as () => void)();
    expect(openExternal).toHaveBeenCalledWith(`${API}/support`);
    // A backend that is not on the allow-list gets no Help links at all.
    expect(sub(build('linux', []).menu.at(-1)!)).toEqual([]);
  });

  it('Settings opens the settings page through a vigil:// link', () => {
    const { menu, openLink } = build('win32');
    (sub(menu[0]!)[0]!.click as () => void)();
    expect(openLink).toHaveBeenCalledWith('vigil://dashboard/settings');
  });

  it('developer tools and reload exist only in development', () => {
    const roles = (isDev: boolean) =>
      sub(build('linux', [API], isDev).menu.find((m) => m.label === 'View')!).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });
});
