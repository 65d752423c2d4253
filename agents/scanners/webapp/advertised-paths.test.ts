import { describe, expect, it } from 'vitest';

import { robotsListed } from './advertised-paths.ts';

const site = (path: string) => new URL(path, 'http://127.0.0.1:8080');

describe('robots.txt entries that are listed', () => {
  it('reports an entry of any name whose directory lists its files, at the entry', () => {
    const findings = robotsListed(
      [site('/ftp'), site('/media/'), site('/cart')],
      new Set([site('/ftp/').href, site('/media/').href]),
    );
    expect(findings.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.robots.sensitive-path', site('/ftp').href],
      ['web.robots.sensitive-path', site('/media/').href],
    ]);
    expect(findings[0]!.evidence).toBe('robots.txt disallows /ftp, yet /ftp/ lists its files to anyone');
  });

  it('leaves entries that sound sensitive to the probes that open them, and the root to the listing check', () => {
    expect(
      robotsListed([site('/backup'), site('/')], new Set([site('/backup/').href, site('/').href])),
    ).toEqual([]);
  });
});
