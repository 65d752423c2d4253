// vigil:// links from e-mails: one running instance owns them (a second launch hands over its argv and
// quits), macOS delivers them through open-url, and Vigil registers itself as the scheme's handler. Every
// source goes through the one router (deep-link-router.ts), which forwards only validated messages.
import path from 'node:path';
import { app } from 'electron';
import { deepLinkFromArgv, DEEP_LINK_SCHEME } from '../../../shared/deep-links.ts';
import { IpcChannel } from '../../../shared/ipc-channels.ts';
import { createDeepLinkRouter } from '../deep-link-router.ts';
import type { MainContext } from './context.ts';
import type { MainWindow } from './main-window.ts';

export type DeepLinks = ReturnType<typeof createDeepLinkRouter>;

export function createDeepLinks(ctx: MainContext, window: () => MainWindow): DeepLinks {
  return createDeepLinkRouter({
    send: (m) => window().current()?.webContents.send(IpcChannel.deepLink, m),
    focus: () => window().focus(),
    log: ctx.log,
  });
}

/**
 * Takes the single-instance lock and listens for links; false when another instance holds the lock (it
 * receives this process's argv, and deep link, through second-instance) and this one quits.
 */
export function initDeepLinks(router: DeepLinks, window: MainWindow): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkFromArgv(argv);
    if (link) {
      router.handle(link);
    }
    window.focus();
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    router.handle(url);
  });
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [path.resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  return true;
}

/** The link Vigil was started with (Windows and Linux pass it in argv), once the app is up. */
export function openStartupLink(router: DeepLinks): void {
  const link = deepLinkFromArgv(process.argv);
  if (link) {
    router.handle(link);
  }
}
