import type { MenuItemConstructorOptions } from 'electron';
import { isAllowedExternal } from './security-rules.ts';

export interface AppMenuDeps {
  platform: NodeJS.Platform;
  /** The backend's origin: its web pages (support, privacy) are where Help points. */
  apiUrl: string;
  externalOrigins: readonly string[];
  openExternal(url: string): Promise<void>;
  /** Shows the main window on a vigil:// page (through the deep-link router). */
  openLink(link: string): void;
  /** Developer tools and reload only in development builds. */
  isDev: boolean;
  log(message: string): void;
}

/** Help links, each checked against the external allow-list before it opens (a bad origin is dropped). */
export function helpLinks(apiUrl: string): { label: string; url: string }[] {
  return [
    { label: 'Vigil Support', url: `${apiUrl}/support` },
    { label: 'Privacy Policy', url: `${apiUrl}/privacy` },
    { label: 'Terms of Service', url: `${apiUrl}/terms` },
  ];
}

/** The application menu: standard roles per platform (macOS app menu, Edit for copy/paste) and Help links. */
export function appMenuTemplate(deps: AppMenuDeps): MenuItemConstructorOptions[] {
  const mac = deps.platform === 'darwin';
  const open = (url: string) => () => {
    if (!isAllowedExternal(url, deps.externalOrigins)) {
      deps.log(`help link not on the external allow-list: ${new URL(url).origin}`);
      return;
    }
    void deps.openExternal(url);
  };
  const help: MenuItemConstructorOptions[] = helpLinks(deps.apiUrl)
    .filter((l) => isAllowedExternal(l.url, deps.externalOrigins))
    .map((l) => ({ label: l.label, click: open(l.url) }));
  const settings: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Settings',
    accelerator: 'CmdOrCtrl+,',
    click: () => deps.openLink('vigil://dashboard/settings'),
  };
  const view: MenuItemConstructorOptions[] = [
    ...(deps.isDev ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const) : []),
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(mac
      ? [
          {
            role: 'appMenu' as const,
            submenu: [
              { role: 'about' as const },
              { type: 'separator' as const },
              settings,
              { type: 'separator' as const },
              { role: 'services' as const },
              { type: 'separator' as const },
              { role: 'hide' as const },
              { role: 'hideOthers' as const },
              { role: 'unhide' as const },
              { type: 'separator' as const },
              { role: 'quit' as const },
            ],
          },
        ]
      : []),
    {
      role: 'fileMenu',
      submenu: mac
        ? [{ role: 'close' }]
        : [settings, { type: 'separator' }, { role: 'close' }, { role: 'quit' }],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: help },
  ];
}
