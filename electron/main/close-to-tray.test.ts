import { describe, expect, it, vi } from 'vitest';
import { enableCloseToTray } from './close-to-tray.ts';

function setup(platform: NodeJS.Platform) {
  const app: Record<string, () => void> = {};
  let onClose: (e: { preventDefault(): void }) => void = () => {};
  const window = { on: vi.fn((_: 'close', l: typeof onClose) => (onClose = l)), hide: vi.fn() };
  const show = vi.fn();
  const onFirstHide = vi.fn();
  const ctl = enableCloseToTray({
    app: { on: (e: string, l: () => void) => void (app[e] = l) },
    window,
    platform,
    show,
    onFirstHide,
  });
  const close = () => {
    const e = { preventDefault: vi.fn() };
    onClose(e);
    return e.preventDefault.mock.calls.length > 0;
  };
  return { app, window, show, onFirstHide, ctl, close };
}

describe('close to tray', () => {
  it('closing hides the window instead (Vigil keeps watching), and says so once', () => {
    const s = setup('win32');
    expect(s.close()).toBe(true);
    expect(s.close()).toBe(true);
    expect(s.window.hide).toHaveBeenCalledTimes(2);
    expect(s.onFirstHide).toHaveBeenCalledTimes(1);
  });

  it('Quit really quits: after before-quit the window may close', () => {
    const s = setup('linux');
    s.app['before-quit']!();
    expect(s.close()).toBe(false);
    expect(s.window.hide).not.toHaveBeenCalled();
    expect(s.ctl.isQuitting()).toBe(true);
  });

  it('macOS: the dock icon brings the window back; elsewhere there is no activate handler', () => {
    const mac = setup('darwin');
    mac.app.activate!();
    expect(mac.show).toHaveBeenCalled();
    expect(setup('win32').app.activate).toBeUndefined();
  });
});
