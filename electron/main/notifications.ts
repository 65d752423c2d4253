import type { NotificationIntent } from './background-watcher-rules.ts';

/** What the notifier needs of Electron's Notification (passed in, so it is testable without Electron). */
export interface NotificationLike {
  on(event: 'click' | 'close' | 'failed', listener: () => void): void;
  show: () => void;
}
export interface NotificationCtor {
  new (options: {
    title: string;
    body: string;
    silent?: boolean;
    urgency?: 'normal' | 'critical' | 'low';
    icon?: string;
  }): NotificationLike;
  isSupported: () => boolean;
}

export interface NotifierDeps {
  Notification: NotificationCtor;
  /** The deep-link router's handle(): validates the vigil:// link, then focuses the window on that page. */
  openLink: (link: string) => boolean;
  log: (message: string) => void;
  icon?: string;
}

/** Notifications waiting for a click are held so the garbage collector cannot drop their click handler. */
const MAX_LIVE = 20;

/**
 * Shows native notifications for the background watcher. A click opens the notification's page through the
 * deep-link router, so a notification reaches only routes that a vigil:// link could reach.
 */
export function createNotifier(deps: NotifierDeps) {
  const live = new Set<NotificationLike>();
  return {
    show(intent: NotificationIntent): boolean {
      if (!deps.Notification.isSupported()) {
        deps.log(`notifications are not supported here; not shown: ${intent.title}`);
        return false;
      }
      const n = new deps.Notification({
        title: intent.title,
        body: intent.body,
        urgency: intent.urgency,
        ...(deps.icon ? { icon: deps.icon } : {}),
      });
      const release = () => live.delete(n);
      n.on('click', () => {
        release();
        if (!deps.openLink(intent.link)) {
          deps.log(`notification link refused: ${intent.key}`);
        }
      });
      n.on('close', release);
      n.on('failed', release);
      live.add(n);
      if (live.size > MAX_LIVE) {
        live.delete(live.values().next().value as NotificationLike);
      }
      n.show();
      // The key names a row id only; titles may describe a customer's systems and stay out of the log.
      deps.log(`notification shown: ${intent.key}`);
      return true;
    },
    liveCount: () => live.size,
  };
}
