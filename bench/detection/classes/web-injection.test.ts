import { describe, expect, it } from 'vitest';

import { classOf, sqlmapInjectionPoints, wapitiReports } from './web-injection.ts';

describe('web-injection bench parsers', () => {
  it("reads sqlmap's closing summary", () => {
    const stdout = `[04:14:23] [INFO] GET parameter 'ref' appears to be 'MySQL >= 5.0.12 AND time-based blind (query SLEEP)' injectable
sqlmap identified the following injection point(s) with a total of 301 HTTP(s) requests:
---
Parameter: ref (GET)
    Type: boolean-based blind
    Title: AND boolean-based blind - WHERE or HAVING clause
    Payload: ref=newsletter' AND 1=1 AND 'a'='a

    Type: time-based blind
    Title: MySQL >= 5.0.12 AND time-based blind (query SLEEP)
    Payload: ref=newsletter' AND (SELECT 6258 FROM (SELECT(SLEEP(5)))Mowj) AND 'CIGX'='CIGX
---
do you want to exploit this SQL injection? [Y/n] Y`;
    expect(sqlmapInjectionPoints(stdout)).toEqual([
      { param: 'ref', place: 'GET', types: ['boolean-based blind', 'time-based blind'] },
    ]);
    expect(sqlmapInjectionPoints('[ERROR] all tested parameters do not appear to be injectable')).toEqual([]);
  });

  it("maps wapiti's JSON report to locations, leaving out what it has no rule for", () => {
    const report = {
      vulnerabilities: {
        'Blind SQL Injection': [{ method: 'GET', path: '/product.php', parameter: 'id' }],
        'Path Traversal': [{ method: 'POST', path: '/view.php', parameter: 'file' }],
        'Content Security Policy Configuration': [{ method: 'GET', path: '/', parameter: '' }],
      },
    };
    expect(wapitiReports(report).map((r) => [r.location, r.rules.length > 0])).toEqual([
      ['/product.php?id=', true],
      ['POST /view.php?file=', true],
    ]);
  });

  it('sorts planted issues into classes', () => {
    expect(classOf({ rule_id: 'web.sqli.time', location: '/t?ref=' })).toBe('injection');
    expect(classOf({ rule_id: 'web.graphql.introspection', location: '/graphql' })).toBe('api-discovery');
    expect(classOf({ rule_id: 'web.transport.cleartext', location: '/' })).toBe('web-basics');
  });
});
