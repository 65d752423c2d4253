import { describe, expect, it } from 'vitest';

import { cvssBaseScore, severityFromScore } from './cvss.ts';

describe('cvssBaseScore', () => {
  // Reference scores from the FIRST CVSS 3.1 calculator.
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 7.5],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N', 3.1],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10],
    ['CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', 7.8],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
  ])('%s scores %d', (vector, score) => {
    expect(cvssBaseScore(vector)).toBe(score);
  });

  it('refuses malformed vectors', () => {
    expect(() => cvssBaseScore('CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toThrow();
    expect(() => cvssBaseScore('CVSS:3.1/AV:N/AC:L')).toThrow();
    expect(() => cvssBaseScore('CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toThrow();
  });

  it('maps scores to ratings', () => {
    expect([0, 3.1, 4, 7.5, 9.8].map(severityFromScore)).toEqual([
      'info',
      'low',
      'medium',
      'high',
      'critical',
    ]);
  });
});
