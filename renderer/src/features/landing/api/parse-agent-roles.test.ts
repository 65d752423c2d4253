import { describe, expect, it } from 'vitest';

import { parseAgentRoles } from './parse-agent-roles.ts';

describe('parseAgentRoles', () => {
  const row = {
    id: 'r1',
    name: 'Analyst',
    description: 'd',
    role_type: 'cybersecurity_analyst',
    price_monthly: 29900,
    features: ['a'],
  };
  it('accepts rows and parses string features', () => {
    expect(
      parseAgentRoles([row, { ...row, id: 'r2', features: '["x","y"]' }]).map((role) => role.features),
    ).toEqual([['a'], ['x', 'y']]);
  });
  it('uses an empty list for unparsable features', () => {
    expect(parseAgentRoles([{ ...row, features: '{broken' }])[0]?.features).toEqual([]);
    expect(parseAgentRoles([{ ...row, features: 42 }])[0]?.features).toEqual([]);
  });
  it('drops malformed rows and non-arrays', () => {
    expect(parseAgentRoles([{ id: 1 }, row])).toHaveLength(1);
    expect(parseAgentRoles(null)).toEqual([]);
    expect(parseAgentRoles([{ ...row, price_monthly: -5 }])).toEqual([]);
  });
});
