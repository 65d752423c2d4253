import { describe, expect, it } from 'vitest';

import { acceptedUntil, confidencePercent, severityBadge } from './format.ts';
import { insightFindingsRef, recommendationSteps } from './findings-ref.ts';

describe('confidencePercent', () => {
  it('rounds to a whole percentage', () => {
    expect(confidencePercent(0.874)).toBe('87%');
    expect(confidencePercent(0.875)).toBe('88%');
    expect(confidencePercent(0)).toBe('0%');
    expect(confidencePercent(1)).toBe('100%');
  });
  it('clamps out-of-range and non-finite values', () => {
    expect(confidencePercent(1.7)).toBe('100%');
    expect(confidencePercent(-0.2)).toBe('0%');
    expect(confidencePercent(Number.NaN)).toBe('0%');
  });
});

describe('severityBadge', () => {
  it('makes the worst stand out', () => {
    expect(['critical', 'high', 'medium', 'low', 'info', 'weird'].map(severityBadge)).toEqual([
      'destructive',
      'destructive',
      'default',
      'secondary',
      'outline',
      'outline',
    ]);
  });
});

describe('acceptedUntil', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('accepts a future date within a year, as the end of that day', () => {
    expect(acceptedUntil('2026-12-22', now)).toEqual({ value: '2026-12-22T23:59:59.000Z' });
  });
  it('refuses past, far-future and malformed dates', () => {
    expect(acceptedUntil('2026-11-21', now)).toHaveProperty('error');
    expect(acceptedUntil('2028-01-01', now)).toHaveProperty('error');
    expect(acceptedUntil('tomorrow', now)).toHaveProperty('error');
    expect(acceptedUntil("2026-12-01' or 1=1", now)).toHaveProperty('error');
  });
});

describe('insightFindingsRef', () => {
  it('points at a rule or at new services', () => {
    expect(insightFindingsRef({ rule_id: 'web.headers.csp', targets: 2 })).toEqual({
      ruleId: 'web.headers.csp',
    });
    expect(insightFindingsRef({ new_services: ['127.0.0.1:22', 5, ''] })).toEqual({
      locations: ['127.0.0.1:22'],
    });
  });
  it('has no findings for history-wide insights or odd data', () => {
    expect(insightFindingsRef({ z: 2.1 })).toBeNull();
    expect(insightFindingsRef(null)).toBeNull();
    expect(insightFindingsRef([{ rule_id: 'x' }])).toBeNull();
    expect(insightFindingsRef({ new_services: [] })).toBeNull();
  });
});

describe('recommendationSteps', () => {
  it('reads titled steps and strings, skipping the rest', () => {
    expect(
      recommendationSteps([{ title: 'Add headers', detail: 'nginx' }, 'Redeploy', 3, { nope: 1 }]),
    ).toEqual([{ title: 'Add headers', detail: 'nginx' }, { title: 'Redeploy' }]);
    expect(recommendationSteps('x')).toEqual([]);
  });
});
