import { describe, expect, it } from 'vitest';

import { ConfigError } from './config-error.ts';
import { loadRuntimeConfig, parseRuntimeConfig } from './runtime-config.ts';

const good = { supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'anon.jwt.value' };

describe('runtime config', () => {
  it('accepts the public values the stack serves', () => {
    expect(parseRuntimeConfig(good)).toEqual(good);
  });
  it('lists every problem in a readable error', () => {
    try {
      parseRuntimeConfig({ supabaseUrl: 'javascript:alert(1)' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
      expect((error as ConfigError).message).toContain('supabaseUrl');
      expect((error as ConfigError).message).toContain('supabaseAnonKey');
    }
    expect(() => parseRuntimeConfig(null)).toThrow(ConfigError);
  });
  it('loads /config.json and refuses failed or non-JSON answers', async () => {
    const answer =
      (body: string, status = 200) =>
      () =>
        Promise.resolve(new Response(body, { status }));
    await expect(loadRuntimeConfig(answer(JSON.stringify(good)))).resolves.toEqual(good);
    await expect(loadRuntimeConfig(answer('nope', 503))).rejects.toThrow('/config.json answered 503');
    await expect(loadRuntimeConfig(answer('<html>'))).rejects.toThrow('not valid JSON');
  });
});
