// Updates of the packaged app (auto-update.ts).
import { app } from 'electron';
import { autoUpdater } from 'electron-updater';
import { checkForUpdates } from '../auto-update.ts';
import type { MainContext } from './context.ts';

export function initAutoUpdate(ctx: MainContext): void {
  void checkForUpdates({ autoUpdater, isPackaged: app.isPackaged, env: ctx.settings, log: ctx.log });
}
