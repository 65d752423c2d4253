import { expect, it, vi } from 'vitest';

it('makes zod, loaded afterwards, parse without code generation', async () => {
  delete globalThis.__zod_globalConfig;
  vi.resetModules();
  await import('./zod-jitless.ts');
  const core = await import('zod/v4/core');
  expect(core.config().jitless).toBe(true);
  const { z } = await import('zod');
  const probe = vi.spyOn(globalThis, 'Function');
  expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  expect(probe).not.toHaveBeenCalled();
});
