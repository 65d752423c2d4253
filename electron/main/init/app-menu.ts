// The application menu (app-menu.ts).
import { app, Menu, shell } from 'electron';
import { appMenuTemplate } from '../app-menu.ts';
import type { MainContext } from './context.ts';
import type { DeepLinks } from './deep-links.ts';

export function initAppMenu(ctx: MainContext, router: DeepLinks): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        platform: process.platform,
        apiUrl: ctx.apiUrl,
        externalOrigins: ctx.externalOrigins,
        openExternal: (url) => shell.openExternal(url),
        openLink: (link) => void router.handle(link),
        isDev: !app.isPackaged,
        log: ctx.log,
      }),
    ),
  );
}
