import { describe, expect, it, vi } from 'vitest';
import { checkForUpdates } from './auto-update.ts';

function updater(fail = false) {
  return {
    setFeedURL: vi.fn(),
    on: vi.fn(),
    checkForUpdatesAndNotify: vi.fn(() =>
      fail ? Promise.reject(new Error('offline')) : Promise.resolve(null),
    ),
  };
}

describe('auto-update', () => {
  it('never runs in development', async () => {
    const u = updater();
    expect(await checkForUpdates({ autoUpdater: u, isPackaged: false, env: {}, log: vi.fn() })).toBe(
      'skipped',
    );
    expect(u.checkForUpdatesAndNotify).not.toHaveBeenCalled();
  });

  it('packaged: checks the built-in feed, or VIGIL_UPDATE_URL when set', async () => {
    const u = updater();
    expect(await checkForUpdates({ autoUpdater: u, isPackaged: true, env: {}, log: vi.fn() })).toBe(
      'checked',
    );
    expect(u.setFeedURL).not.toHaveBeenCalled();
    const v = updater();
    const env = { VIGIL_UPDATE_URL: 'https://updates.example/vigil/' };
    expect(await checkForUpdates({ autoUpdater: v, isPackaged: true, env, log: vi.fn() })).toBe('checked');
    expect(v.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: 'https://updates.example/vigil/' });
  });

  it('refuses a feed that is not https (an update is code), and survives a failing check', async () => {
    for (const url of ['http://updates.example/', 'file:///tmp/evil', 'not a url']) {
      const u = updater();
      const r = await checkForUpdates({
        autoUpdater: u,
        isPackaged: true,
        env: { VIGIL_UPDATE_URL: url },
        log: vi.fn(),
      });
      expect(r).toBe('skipped');
      expect(u.checkForUpdatesAndNotify).not.toHaveBeenCalled();
    }
    const log = vi.fn();
    expect(await checkForUpdates({ autoUpdater: updater(true), isPackaged: true, env: {}, log })).toBe(
      'failed',
    );
    expect(log).toHaveBeenCalledWith('auto-update: offline');
  });
});
