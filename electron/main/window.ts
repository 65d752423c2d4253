import type { BrowserWindow as BrowserWindowType, BrowserWindowConstructorOptions } from 'electron';
import { APP_ORIGIN } from './app-scheme.ts';

type BrowserWindowCtor = new (options: BrowserWindowConstructorOptions) => BrowserWindowType;

/** The main window: isolated, sandboxed, no Node in the renderer, shown once painted. */
export function createMainWindow(
  BrowserWindow: BrowserWindowCtor,
  preload: string,
  icon?: string,
): BrowserWindowType {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 360,
    minHeight: 560,
    show: false,
    backgroundColor: '#0b1120',
    title: 'Vigil',
    ...(icon ? { icon } : {}),
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/`);
  return win;
}
