// The main window: opened at start (unless Vigil started in the tray at login) or on demand, hidden to
// the tray when closed.
import path from 'node:path';
import { app, BrowserWindow, Notification } from 'electron';
import { enableCloseToTray } from '../close-to-tray.ts';
import { createMainWindow } from '../window.ts';
import type { MainContext } from './context.ts';

export interface MainWindow {
  current(): BrowserWindow | null;
  /** Shows the window, creating it first when Vigil started in the tray (launch at login). */
  focus(): void;
  /** Opens the window at start, unless Vigil was started at login (then it stays in the tray). */
  openAtStart(): void;
}

/** `onLoad` runs when a window has loaded the renderer (deep links wait for it). */
export function initMainWindow(ctx: MainContext, onLoad: () => void): MainWindow {
  let mainWindow: BrowserWindow | null = null;
  const open = (): BrowserWindow => {
    const win = createMainWindow(BrowserWindow, path.join(ctx.distDir, 'electron', 'preload.cjs'));
    win.webContents.once('did-finish-load', () => onLoad());
    enableCloseToTray({
      app,
      window: win,
      platform: process.platform,
      show: focus,
      onFirstHide: () => {
        if (process.platform !== 'darwin') {
          new Notification({
            title: 'Vigil is still running',
            body: 'It keeps watching from the tray.',
          }).show();
        }
      },
    });
    return win;
  };
  const focus = () => {
    // Before ready (an early macOS open-url) no window can exist yet; openAtStart() creates it.
    if (!mainWindow && !app.isReady()) {
      return;
    }
    const win = (mainWindow ??= open());
    if (win.isMinimized()) {
      win.restore();
    }
    win.show();
    win.focus();
  };
  return {
    current: () => mainWindow,
    focus,
    openAtStart: () => {
      if (!ctx.launchAtLogin.startedAtLogin(process.argv)) {
        mainWindow = open();
      }
    },
  };
}
