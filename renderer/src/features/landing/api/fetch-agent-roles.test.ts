import { afterEach, describe, expect, it, vi } from 'vitest';

import { DEFAULT_AGENT_ROLES } from '../../../../../shared/constants.ts';
import { fetchLandingAgentRoles } from './fetch-agent-roles.ts';

const row = {
  id: 'r1',
  name: 'Analyst',
  description: null,
  role_type: 'cybersecurity_analyst',
  price_monthly: '29900',
  features: '["a"]',
};

describe('fetchLandingAgentRoles', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the parsed catalogue', async () => {
    const result = await fetchLandingAgentRoles(() => Promise.resolve([row]));
    expect(result).toEqual({
      roles: [{ ...row, description: '', price_monthly: 29900, features: ['a'] }],
      fallback: false,
    });
  });

  it('falls back silently to the built-in roles on an empty or malformed result', async () => {
    for (const data of [[], null, [{ id: 1 }]]) {
      const result = await fetchLandingAgentRoles(() => Promise.resolve(data));
      expect(result).toEqual({ roles: [...DEFAULT_AGENT_ROLES], fallback: true });
    }
  });

  it('falls back on a failed call and only warns', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await fetchLandingAgentRoles(() => Promise.reject(new Error('503')));
    expect(result.fallback).toBe(true);
    expect(result.roles).toHaveLength(7);
    expect(warn).toHaveBeenCalledOnce();
  });
});
