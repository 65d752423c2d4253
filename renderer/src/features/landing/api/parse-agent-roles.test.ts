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

describe('parseAgentRoles on hostile rows', () => {
  const row = {
    id: 'r1',
    name: 'A',
    description: null,
    role_type: 't',
    price_monthly: '29900',
    features: [],
  };
  it('accepts digit-string prices and a null description', () => {
    expect(parseAgentRoles([row])).toEqual([{ ...row, description: '', price_monthly: 29900 }]);
  });
  it('drops rows with wrong types, fractional or huge prices', () => {
    for (const bad of [
      { ...row, price_monthly: 1.5 },
      { ...row, price_monthly: '-1' },
      { ...row, price_monthly: '1e9' },
      { ...row, price_monthly: Number.MAX_VALUE },
      { ...row, name: 7 },
      { ...row, description: undefined },
      'row',
      null,
    ]) {
      expect(parseAgentRoles([bad])).toEqual([]);
    }
  });
});
