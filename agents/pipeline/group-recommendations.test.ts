import { describe, expect, it } from 'vitest';
import { groupRecommendations, type OpenFinding } from './group-recommendations.ts';

const f = (
  id: string,
  rule_id: string,
  severity: OpenFinding['severity'],
  location = '/',
  target_id = 't1',
): OpenFinding => ({
  id,
  rule_id,
  severity,
  location,
  target_id,
  title: rule_id,
});

describe('groupRecommendations', () => {
  it('groups findings by root cause and points at the worst one', () => {
    const recs = groupRecommendations([
      f('1', 'web.exposed.env', 'high', '/.env'),
      f('2', 'web.directory-listing', 'medium', '/uploads/'),
      f('3', 'web.header.csp-missing', 'low'),
      f('4', 'web.clickjacking', 'medium'),
    ]);
    expect(recs.map((r) => r.category)).toEqual(['exposed-sensitive-files', 'security-headers']);
    expect(recs[0]).toMatchObject({ priority: 'high', finding_id: '1' });
    expect(recs[1]).toMatchObject({ priority: 'medium', finding_id: '4' });
    const snippets = (recs[1]!.steps as { snippets?: Record<string, string> }[]).find(
      (s) => s.snippets,
    )!.snippets!;
    expect(Object.keys(snippets).sort()).toEqual(['apache', 'express', 'iis', 'nginx']);
  });

  it('raises priority for wide exposure', () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((x, i) =>
      f(String(i), 'web.disclosure.server-version', 'low', `/${x}`),
    );
    expect(groupRecommendations(many)[0]!.priority).toBe('medium');
    expect(groupRecommendations(many.slice(0, 1))[0]!.priority).toBe('low');
  });

  it('keeps unknown rules as their own cause', () => {
    expect(groupRecommendations([f('9', 'x.unknown', 'critical')])[0]).toMatchObject({
      category: 'rule:x.unknown',
      priority: 'high',
    });
  });
});
