import { describe, expect, it, vi } from 'vitest';
import { createDeepLinkRouter } from './deep-link-router.ts';
import { createNotifier, type NotificationCtor } from './notifications.ts';

const ID = '6f1c1a34-3d5b-4a47-9a53-0c9a0f5a9d11';

function fakeNotification(supported = true) {
  const shown: { options: { title: string; body: string }; listeners: Record<string, () => void> }[] = [];
  const Ctor = class {
    listeners: Record<string, () => void> = {};
    constructor(public options: { title: string; body: string }) {
      shown.push(this);
    }
    on(event: string, l: () => void) {
      this.listeners[event] = l;
    }
    show() {}
    static isSupported = () => supported;
  };
  return { Ctor: Ctor as unknown as NotificationCtor, shown };
}

function setup(supported = true) {
  const { Ctor, shown } = fakeNotification(supported);
  const send = vi.fn();
  const focus = vi.fn();
  const log = vi.fn();
  const router = createDeepLinkRouter({ send, focus, log });
  router.markReady();
  const notifier = createNotifier({ Notification: Ctor, openLink: (l) => router.handle(l), log });
  return { notifier, shown, send, focus, log };
}

const intent = {
  key: `event:${ID}`,
  title: 'Critical security alert',
  body: 'SQL injection',
  link: `vigil://dashboard/alerts?event=${ID}`,
  urgency: 'critical' as const,
};

describe('notifier', () => {
  it('shows the notification; a click focuses the window on the alert through the deep-link router', () => {
    const { notifier, shown, send, focus } = setup();
    expect(notifier.show(intent)).toBe(true);
    expect(shown[0]!.options).toMatchObject({ title: 'Critical security alert', body: 'SQL injection' });
    expect(notifier.liveCount()).toBe(1);
    shown[0]!.listeners.click!();
    expect(send).toHaveBeenCalledWith({ route: '/dashboard/alerts', params: { event: ID } });
    expect(focus).toHaveBeenCalled();
    expect(notifier.liveCount()).toBe(0);
  });

  it('a link the router refuses opens nothing and is logged by key only', () => {
    const { notifier, shown, send, focus, log } = setup();
    notifier.show({ ...intent, link: 'https://evil.example/?token=secret' });
    shown[0]!.listeners.click!();
    expect(send).not.toHaveBeenCalled();
    expect(focus).not.toHaveBeenCalled();
    expect(JSON.stringify(log.mock.calls)).not.toContain('secret');
  });

  it('keeps a bounded number of notifications alive', () => {
    const { notifier } = setup();
    for (let i = 0; i < 100; i++) {
      notifier.show({ ...intent, key: `k${i}` });
    }
    expect(notifier.liveCount()).toBe(20);
  });

  it('where notifications are unsupported it says so and shows nothing', () => {
    const { notifier, shown, log } = setup(false);
    expect(notifier.show(intent)).toBe(false);
    expect(shown).toHaveLength(0);
    expect(log).toHaveBeenCalled();
  });
});
