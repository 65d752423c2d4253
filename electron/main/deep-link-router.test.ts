import { describe, expect, it, vi } from 'vitest';
import { createDeepLinkRouter } from './deep-link-router.ts';

const CODE = '0f8f1e0c-58f2-4a5e-9d55-2d0d6b7c3a11';

function setup() {
  const deps = { send: vi.fn(), focus: vi.fn(), log: vi.fn() };
  return { deps, router: createDeepLinkRouter(deps) };
}

describe('deep-link router', () => {
  it('holds links until the renderer is ready, then forwards the typed message', () => {
    const { deps, router } = setup();
    expect(router.handle(`vigil://auth/callback?code=${CODE}`)).toBe(true);
    expect(deps.send).not.toHaveBeenCalled();
    expect(deps.focus).toHaveBeenCalled();
    router.markReady();
    expect(deps.send).toHaveBeenCalledWith({ route: '/auth/callback', params: { code: CODE } });
    router.handle('vigil://dashboard/alerts');
    expect(deps.send).toHaveBeenLastCalledWith({ route: '/dashboard/alerts', params: {} });
  });

  it('refuses hostile links without forwarding, focusing or logging their content', () => {
    const { deps, router } = setup();
    router.markReady();
    for (const link of [
      'javascript:alert(1)',
      'vigil://auth/callback?code=' + 'a'.repeat(3000),
      `vigil://evil?code=${CODE}`,
    ]) {
      expect(router.handle(link)).toBe(false);
    }
    expect(deps.send).not.toHaveBeenCalled();
    expect(deps.focus).not.toHaveBeenCalled();
    expect(JSON.stringify(deps.log.mock.calls)).not.toContain(CODE);
  });

  it('keeps at most five links waiting', () => {
    const { deps, router } = setup();
    for (let i = 0; i < 10; i++) {
      router.handle('vigil://dashboard');
    }
    router.markReady();
    expect(deps.send).toHaveBeenCalledTimes(5);
  });
});
