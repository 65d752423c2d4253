import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { HandoffError, runHandoff, waitForRelayResult, type HandoffPlatform } from './desktop-handoff.ts';
import { decodeRelayFragment, returnLink } from './relay-codec.ts';

function fakePlatform(opened = true) {
  const listeners = new Set<(p: Record<string, string>) => void>();
  const urls: string[] = [];
  const platform: HandoffPlatform = {
    webUrl: () => Promise.resolve('http://localhost:54321'),
    openInBrowser: (url) => {
      urls.push(url);
      return Promise.resolve(opened);
    },
    onRelayResult: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  const deliver = (params: Record<string, string>) => {
    for (const l of [...listeners]) {
      l(params);
    }
  };
  return { platform, urls, deliver, listening: () => listeners.size };
}

const STATE = 'a'.repeat(43);
const assertion = {
  id: 'Y3JlZC0x',
  rawId: 'Y3JlZC0x',
  type: 'public-key' as const,
  clientExtensionResults: {},
  response: { clientDataJSON: 'eyJ9', authenticatorData: 'AAAA', signature: 'MEUC' },
};
const responseParam = (state: string) => new URL(returnLink(state, assertion)).searchParams.get('response')!;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('waitForRelayResult', () => {
  it('ignores answers for another state and resolves with the matching one', async () => {
    const { platform, deliver, listening } = fakePlatform();
    const result = waitForRelayResult(platform, { state: STATE, deadline: Date.now() + 60_000 });
    deliver({ state: 'b'.repeat(43), response: 'forged' });
    deliver({ state: STATE, response: 'real' });
    await expect(result).resolves.toEqual({ response: 'real' });
    expect(listening()).toBe(0);
  });

  it('gives up when the challenge expires', async () => {
    const { platform, deliver, listening } = fakePlatform();
    const result = waitForRelayResult(platform, { state: STATE, deadline: Date.now() + 60_000 });
    const settled = expect(result).rejects.toMatchObject({ reason: 'expired' });
    await vi.advanceTimersByTimeAsync(60_001);
    await settled;
    deliver({ state: STATE, response: 'late' });
    expect(listening()).toBe(0);
  });

  it('stops on cancel, and reports the browser’s own cancel or missing support', async () => {
    const { platform, deliver } = fakePlatform();
    const controller = new AbortController();
    const cancelled = waitForRelayResult(platform, {
      state: STATE,
      deadline: Date.now() + 60_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ reason: 'cancelled' });
    const unsupported = waitForRelayResult(platform, { state: STATE, deadline: Date.now() + 60_000 });
    deliver({ state: STATE, error: 'unsupported' });
    await expect(unsupported).rejects.toMatchObject({ reason: 'unsupported' });
  });
});

describe('runHandoff', () => {
  const options = {
    rpId: 'localhost',
    challenge: 'x7sVhQk3lG0mH6b1QfC2pYwq8aZJtN4u5eRkLdSoIvM',
    allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key' as const }],
  };

  it('opens the relay with a fresh state and returns the credential answering it', async () => {
    const { platform, urls, deliver } = fakePlatform();
    const result = runHandoff(platform, { mode: 'authenticate', options }, { deadline: Date.now() + 60_000 });
    await vi.waitFor(() => expect(urls).toHaveLength(1));
    const decoded = decodeRelayFragment(new URL(urls[0]!).hash, 'localhost');
    expect(decoded.ok).toBe(true);
    const state = decoded.ok ? decoded.request.state : '';
    deliver({ state, response: responseParam(state) });
    await expect(result).resolves.toEqual(assertion);
  });

  it('fails plainly when the browser cannot be opened or no web origin is known', async () => {
    const refused = fakePlatform(false);
    await expect(
      runHandoff(refused.platform, { mode: 'authenticate', options }, { deadline: Date.now() + 60_000 }),
    ).rejects.toMatchObject({ reason: 'browser' });
    expect(refused.listening()).toBe(0);
    const unconfigured = { ...fakePlatform().platform, webUrl: () => Promise.resolve(null) };
    const error = await runHandoff(
      unconfigured,
      { mode: 'authenticate', options },
      { deadline: Date.now() + 1 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandoffError);
    expect((error as HandoffError).message).toContain('VIGIL_WEB_URL');
  });
});
