import { describe, expect, it, vi } from 'vitest';
import { applySecurityRules, isAllowedExternal, type WebContentsLike } from './security-rules.ts';

const ORIGINS = ['https://checkout.stripe.com', 'http://127.0.0.1:54321'];

function harness() {
  const handlers: Record<string, (...a: never[]) => unknown> = {};
  let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
  const contents: WebContentsLike = {
    on: (event: string, l: (...a: never[]) => unknown) => {
      handlers[event] = l;
    },
    setWindowOpenHandler: (h) => {
      openHandler = h;
    },
  };
  let permission: ((wc: unknown, p: string, cb: (g: boolean) => void) => void) | undefined;
  let check: (() => boolean) | undefined;
  const openExternal = vi.fn(() => Promise.resolve());
  const log = vi.fn();
  applySecurityRules({
    onWebContentsCreated: (l) => l(contents),
    setPermissionRequestHandler: (h) => {
      permission = h;
    },
    setPermissionCheckHandler: (h) => {
      check = h;
    },
    openExternal,
    externalOrigins: ORIGINS,
    log,
  });
  const navigate = (event: string, url: string) => {
    const e = { preventDefault: vi.fn() };
    (handlers[event] as (e: unknown, u: string) => void)(e, url);
    return e.preventDefault.mock.calls.length > 0;
  };
  return {
    navigate,
    open: (url: string) => openHandler!({ url }),
    openExternal,
    permission: permission!,
    check: check!,
    log,
    handlers,
  };
}

describe('security rules', () => {
  it('keeps navigation inside app://vigil', () => {
    const h = harness();
    expect(h.navigate('will-navigate', 'app://vigil/dashboard')).toBe(false);
    expect(h.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(h.navigate('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(h.navigate('will-navigate', 'app://vigil.evil/')).toBe(true);
  });

  it('never opens windows; allowed https links go to the browser, others nowhere', () => {
    const h = harness();
    expect(h.open('https://checkout.stripe.com/c/pay/cs_test_1')).toEqual({ action: 'deny' });
    expect(h.openExternal).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1');
    h.open('javascript:alert(1)');
    h.open('https://evil.example/');
    h.open('file:///etc/passwd');
    expect(h.openExternal).toHaveBeenCalledTimes(1);
  });

  it('denies every permission request and refuses webviews', () => {
    const h = harness();
    const cb = vi.fn();
    h.permission({}, 'media', cb);
    expect(cb).toHaveBeenCalledWith(false);
    expect(h.check()).toBe(false);
    const e = { preventDefault: vi.fn() };
    (h.handlers['will-attach-webview'] as (e: unknown) => void)(e);
    expect(e.preventDefault).toHaveBeenCalled();
  });

  it('does not log the query of a blocked link (it may hold an auth code)', () => {
    const h = harness();
    h.navigate('will-navigate', 'https://evil.example/cb?code=secret-code');
    expect(JSON.stringify(h.log.mock.calls)).not.toContain('secret-code');
  });
});

describe('isAllowedExternal', () => {
  it.each([
    ['https://checkout.stripe.com/pay', true],
    ['http://127.0.0.1:54321/_checkout/abc', true],
    ['http://checkout.stripe.com/pay', false],
    ['https://checkout.stripe.com.evil.example/', false],
    ['https://user:pw@checkout.stripe.com/', false],
    ['http://127.0.0.1:9999/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedExternal(url, ORIGINS)).toBe(allowed);
  });
});
