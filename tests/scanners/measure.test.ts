import { describe, expect, it } from 'vitest';

import { webappFinding } from '../../agents/scanners/webapp/rules.ts';
import { measure } from './measure.ts';

describe('measure', () => {
  const target = 'http://127.0.0.1:9';
  const found = [
    webappFinding('web.xss.reflected', { location: `${target}/search?q=`, evidence: '' }),
    webappFinding('web.clickjacking', { location: `${target}/`, evidence: '' }),
  ];

  it('counts missed and unexpected findings', () => {
    const m = measure(
      found,
      [
        { rule_id: 'web.xss.reflected', location: '/search?q=' },
        { rule_id: 'web.sqli.error', location: '/p?id=' },
      ],
      target,
    );
    expect(m.missed).toEqual([{ rule_id: 'web.sqli.error', location: '/p?id=' }]);
    expect(m.unexpected).toEqual([{ rule_id: 'web.clickjacking', location: '/' }]);
    expect([m.recall, m.precision]).toEqual([0.5, 0.5]);
  });
});
