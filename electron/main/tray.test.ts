import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { createTrayController, type TrayLike } from './tray.ts';
import type { TrayInput } from './tray-view.ts';

const input: TrayInput = {
  signedIn: true,
  runningScans: 0,
  openCriticalAlerts: 0,
  pausedUntil: null,
  launchAtLogin: false,
  formatTime: () => '',
};

function setup(platform: NodeJS.Platform) {
  const listeners: Record<string, () => void> = {};
  const tray = {
    setImage: vi.fn(),
    setToolTip: vi.fn(),
    setContextMenu: vi.fn(),
    on: vi.fn((e: string, l: () => void) => (listeners[e] = l)),
    destroy: vi.fn(),
  } satisfies TrayLike;
  const createTray = vi.fn(() => tray);
  const onAction = vi.fn<(a: string) => void>();
  const menus: MenuItemConstructorOptions[][] = [];
  const c = createTrayController({
    createTray,
    buildMenu: (t) => menus.push(t),
    image: (k) => `/tray/${k}.png`,
    platform,
    onAction,
  });
  return { c, tray, createTray, onAction, menus, listeners };
}

describe('tray controller', () => {
  it('creates the tray once, then swaps the image only when the state icon changes', () => {
    const { c, tray, createTray } = setup('linux');
    c.update(input);
    c.update(input);
    expect(createTray).toHaveBeenCalledTimes(1);
    expect(createTray).toHaveBeenCalledWith('/tray/protected.png');
    expect(tray.setImage).not.toHaveBeenCalled();
    c.update({ ...input, openCriticalAlerts: 2 });
    expect(tray.setImage).toHaveBeenCalledWith('/tray/critical.png');
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Vigil — 2 critical alerts open');
  });

  it('menu items call their actions; the status line is not clickable', () => {
    const { c, menus, onAction } = setup('win32');
    c.update(input);
    const menu = menus.at(-1)!;
    const click = (label: string) => (menu.find((m) => m.label === label)!.click as () => void)();
    click('Run a scan now');
    click('Pause notifications for an hour');
    click('Quit Vigil');
    expect(onAction.mock.calls.map((a: unknown[]) => a[0] as string)).toEqual(['run-scan', 'pause', 'quit']);
    expect(menu.find((m) => m.label === 'Protected: no critical alerts')).toMatchObject({ enabled: false });
  });

  it('left click opens the window on Windows and Linux; macOS keeps its menu-on-click convention', () => {
    const win = setup('win32');
    win.c.update(input);
    win.listeners.click!();
    expect(win.onAction).toHaveBeenCalledWith('open');
    const mac = setup('darwin');
    mac.c.update(input);
    expect(mac.listeners.click).toBeUndefined();
  });
});
