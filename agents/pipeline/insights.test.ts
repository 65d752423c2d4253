import { describe, expect, it } from 'vitest';
import {
  attackSurfaceGrowth,
  newFindingsAnomaly,
  remediationTrend,
  sharedMisconfigurations,
} from './insights.ts';

describe('insights', () => {
  it('flags a jump in new findings against the baseline, with confidence from z', () => {
    const insight = newFindingsAnomaly([1, 2, 1, 2, 1], 12, 's1');
    expect(insight?.insight_type).toBe('anomaly');
    expect(insight!.confidence_score).toBeGreaterThan(0.97);
    expect(insight!.confidence_score).toBeLessThanOrEqual(1);
  });
  it('stays quiet within the baseline or without enough history', () => {
    expect(newFindingsAnomaly([5, 6, 5, 6], 6, 's')).toBeNull();
    expect(newFindingsAnomaly([1, 1], 20, 's')).toBeNull();
  });
  it('reports newly exposed services with Laplace confidence, lower for partial scans', () => {
    expect(attackSurfaceGrowth(['h:6379'], false, 's')!.confidence_score).toBe(0.5);
    expect(attackSurfaceGrowth(['a', 'b', 'c'], false, 's')!.confidence_score).toBe(0.75);
    expect(attackSurfaceGrowth(['a', 'b', 'c'], true, 's')!.confidence_score).toBe(0.375);
    expect(attackSurfaceGrowth([], false, 's')).toBeNull();
  });
  it('finds one rule open on several targets', () => {
    const out = sharedMisconfigurations([
      { rule_id: 'r', title: 'R', target_id: 'a' },
      { rule_id: 'r', title: 'R', target_id: 'b' },
      { rule_id: 'x', title: 'X', target_id: 'c' },
      { rule_id: 'y', title: 'Y', target_id: 'd' },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ insight_type: 'pattern', confidence_score: 0.5 });
  });
  it('compares remediation times', () => {
    expect(remediationTrend([2, 3, 4, 3], [40, 50, 45, 55], 'd')?.title).toMatch(/faster/);
    expect(remediationTrend([2, 3], [40, 50, 45], 'd')).toBeNull();
  });
});
