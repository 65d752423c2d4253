import { describe, expect, it } from 'vitest';
import { makeFinding } from './fixtures.ts';
import { exposure, openAt, riskScore, riskTrend } from './risk.ts';

const at = new Date('2026-03-01T00:00:00Z');
const fresh = (severity: 'critical' | 'high' | 'medium' | 'low' | 'info', extra = {}) =>
  makeFinding(1, { severity, first_seen: at.toISOString(), ...extra });

describe('risk score', () => {
  it('is 0 with nothing open and saturates below 100 as criticals pile up', () => {
    expect(riskScore([], at)).toBe(0);
    expect(riskScore([fresh('info')], at)).toBe(0);
    expect(riskScore([fresh('critical')], at)).toBe(18);
    expect(
      riskScore(
        Array.from({ length: 5 }, () => fresh('critical')),
        at,
      ),
    ).toBe(63);
    const many = riskScore(
      Array.from({ length: 200 }, () => fresh('critical')),
      at,
    );
    expect(many).toBe(100);
  });

  it('weighs severity: one critical outweighs one high, which outweighs three lows', () => {
    expect(riskScore([fresh('critical')], at)).toBeGreaterThan(riskScore([fresh('high')], at));
    expect(riskScore([fresh('high')], at)).toBeGreaterThan(
      riskScore([fresh('low'), fresh('low'), fresh('low')], at),
    );
  });

  it('doubles the weight of a finding left open for 90 days or more', () => {
    expect(exposure(fresh('high'), at)).toBe(1);
    expect(exposure(makeFinding(1, { first_seen: '2025-12-01T00:00:00Z' }), at)).toBe(2);
    expect(exposure(makeFinding(1, { first_seen: '2026-01-15T00:00:00Z' }), at)).toBeCloseTo(1 + 45 / 90, 5);
  });

  it('ignores false positives, accepted risks, fixed findings and findings not yet seen', () => {
    expect(openAt(fresh('critical', { status: 'false_positive' }), at)).toBe(false);
    expect(openAt(fresh('critical', { status: 'accepted_risk' }), at)).toBe(false);
    expect(openAt(makeFinding(1, { status: 'fixed', fixed_at: '2026-02-01T00:00:00Z' }), at)).toBe(false);
    expect(openAt(makeFinding(1, { first_seen: '2026-03-02T00:00:00Z' }), at)).toBe(false);
    expect(openAt(makeFinding(1, { status: 'fixed', fixed_at: '2026-03-05T00:00:00Z' }), at)).toBe(true);
  });

  it('trends against the start of the period', () => {
    const start = new Date('2026-02-01T00:00:00Z');
    const fixedInPeriod = makeFinding(1, {
      severity: 'critical',
      first_seen: '2026-01-31T00:00:00Z',
      status: 'fixed',
      fixed_at: '2026-02-10T00:00:00Z',
    });
    const trend = riskTrend([fixedInPeriod], start, at);
    expect(trend.score).toBe(0);
    expect(trend.previous).toBeGreaterThan(0);
    expect(trend.delta).toBe(-trend.previous);
  });
});
