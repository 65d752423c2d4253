import { describe, expect, it } from 'vitest';

import { ConfigError } from './config-error.ts';
import { loadRuntimeConfig, parseRuntimeConfig, runtimeConfigFrom } from './runtime-config.ts';

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
  it('takes the config written into the page without fetching, and fetches when it is unusable', async () => {
    let fetches = 0;
    const fetched = { supabaseUrl: 'https://api.example.com', supabaseAnonKey: 'fetched.key' };
    const fetchConfig = () => {
      fetches++;
      return Promise.resolve(new Response(JSON.stringify(fetched)));
    };
    await expect(loadRuntimeConfig(fetchConfig, () => JSON.stringify(good))).resolves.toEqual(good);
    expect(fetches).toBe(0);
    for (const unusable of [null, '', '{"supabaseUrl":', JSON.stringify({ supabaseUrl: 'javascript:x' })]) {
      await expect(loadRuntimeConfig(fetchConfig, () => unusable)).resolves.toEqual(fetched);
    }
    expect(fetches).toBe(4);
  });
});

describe('runtimeConfigFrom', () => {
  it('reads the config once for every caller, and again after a failure', async () => {
    let calls = 0;
    let fail = true;
    const source = {
      runtimeConfig: () => {
        calls++;
        return fail ? Promise.reject(new Error('main process not ready')) : Promise.resolve(good);
      },
    };
    await expect(runtimeConfigFrom(source)).rejects.toThrow('main process not ready');
    fail = false;
    const [a, b] = await Promise.all([runtimeConfigFrom(source), runtimeConfigFrom(source)]);
    expect(a).toEqual(good);
    expect(b).toBe(a);
    await runtimeConfigFrom(source);
    expect(calls).toBe(2);
  });

  it('refuses a bad config from the main process', async () => {
    await expect(
      runtimeConfigFrom({ runtimeConfig: () => Promise.resolve({ supabaseUrl: 'file:///x' }) }),
    ).rejects.toThrow(ConfigError);
  });
});
