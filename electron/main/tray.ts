import type { MenuItemConstructorOptions } from 'electron';
import {
  trayView,
  type TrayAction,
  type TrayIconKind,
  type TrayInput,
  type TrayMenuItem,
} from './tray-view.ts';

/** The parts of Electron's Tray and Menu the controller uses (passed in; tested without Electron). */
export interface TrayLike {
  setImage(image: string): void;
  setToolTip(tooltip: string): void;
  /** Method syntax on purpose: it accepts Electron's Tray, whose menu parameter is its own Menu class. */
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayDeps {
  createTray: (image: string) => TrayLike;
  buildMenu: (template: MenuItemConstructorOptions[]) => unknown;
  /** The image for a state (template images on macOS, coloured PNGs elsewhere). */
  image: (kind: TrayIconKind) => string;
  platform: NodeJS.Platform;
  onAction: (action: TrayAction) => void;
}

export function menuTemplate(
  items: TrayMenuItem[],
  onAction: (a: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'label':
        return { label: item.label, enabled: false };
      case 'checkbox':
        return {
          type: 'checkbox',
          label: item.label,
          checked: item.checked,
          click: () => onAction(item.action),
        };
      case 'action':
        return { label: item.label, enabled: item.enabled ?? true, click: () => onAction(item.action) };
    }
  });
}

/** The tray icon: redrawn from the state on every change; a left click opens the window except on macOS. */
export function createTrayController(deps: TrayDeps) {
  let tray: TrayLike | null = null;
  let lastIcon: TrayIconKind | null = null;
  return {
    update(input: TrayInput): void {
      const view = trayView(input);
      if (!tray) {
        tray = deps.createTray(deps.image(view.icon));
        // macOS shows the menu on click (its convention); Windows and Linux open the window.
        if (deps.platform !== 'darwin') {
          tray.on('click', () => deps.onAction('open'));
        }
      } else if (view.icon !== lastIcon) {
        tray.setImage(deps.image(view.icon));
      }
      lastIcon = view.icon;
      tray.setToolTip(view.tooltip);
      tray.setContextMenu(deps.buildMenu(menuTemplate(view.menu, deps.onAction)));
    },
    destroy(): void {
      tray?.destroy();
      tray = null;
    },
  };
}
