import { describe, expect, it } from 'vitest';
import { isTimingSafeEqual, testCardOutcome } from './test-card.ts';

describe('testCardOutcome', () => {
  it('accepts only Stripe test numbers', () => {
    expect(testCardOutcome('4242 4242 4242 4242')).toBe('succeeds');
    expect(testCardOutcome('4000-0000-0000-0002')).toBe('declined');
    expect(testCardOutcome('5555 5555 5555 4444')).toBe('not_a_test_card');
    expect(testCardOutcome('')).toBe('not_a_test_card');
  });
});

describe('isTimingSafeEqual', () => {
  it('compares tokens of any length', () => {
    expect(isTimingSafeEqual('abc', 'abc')).toBe(true);
    expect(isTimingSafeEqual('abc', 'abd')).toBe(false);
    expect(isTimingSafeEqual('abc', 'abcd')).toBe(false);
  });
});
