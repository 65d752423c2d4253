import { describe, expect, it } from 'vitest';
import {
  isTimingSafeEqual,
  SUCCEEDING_TEST_CARDS,
  testCardFingerprint,
  testCardOutcome,
} from './test-card.ts';

describe('testCardOutcome', () => {
  it('accepts only Stripe test numbers', () => {
    expect(testCardOutcome('4242 4242 4242 4242')).toBe('succeeds');
    expect(testCardOutcome('4000-0000-0000-0002')).toBe('declined');
    expect(testCardOutcome('5555 5555 5555 4444')).toBe('succeeds');
    expect(testCardOutcome('3782 822463 10005')).toBe('succeeds');
    expect(testCardOutcome('4111 1111 1111 1111')).toBe('not_a_test_card');
    expect(testCardOutcome('4242 4242 4242 4241')).toBe('not_a_test_card');
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

describe('testCardFingerprint', () => {
  it('names one card the same way for every customer of a stack, and differently on another stack', () => {
    const fingerprint = testCardFingerprint('4242 4242 4242 4242', 'stack-a');
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(testCardFingerprint('4242-4242-4242-4242', 'stack-a')).toBe(fingerprint);
    expect(testCardFingerprint('4242 4242 4242 4242', 'stack-b')).not.toBe(fingerprint);
    const all = new Set(SUCCEEDING_TEST_CARDS.map((card) => testCardFingerprint(card, 'stack-a')));
    expect(all.size).toBe(SUCCEEDING_TEST_CARDS.length);
  });
});
