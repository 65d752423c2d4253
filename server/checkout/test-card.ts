import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stripe's documented test card numbers that succeed (one per brand and kind), so a tester can pay with
 * several cards: each card gets one free trial, as each real card does.
 */
export const SUCCEEDING_TEST_CARDS = [
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '6011981111111113',
  '3056930009020004',
  '36227206271667',
  '6555900000604105',
  '3566002020360505',
  '6200000000000005',
  '6200000000000047',
  '6205500000000000004',
] as const;

const DECLINED_TEST_CARD = '4000000000000002';

const digitsOf = (input: string) => input.replace(/[\s-]/g, '');

/**
 * The local checkout takes Stripe's public test card numbers only, so a real card number typed here by
 * mistake is refused and never stored: the cards above succeed, 4000 0000 0000 0002 is declined.
 */
export function testCardOutcome(input: string): 'succeeds' | 'declined' | 'not_a_test_card' {
  const digits = digitsOf(input);
  if ((SUCCEEDING_TEST_CARDS as readonly string[]).includes(digits)) {
    return 'succeeds';
  }
  return digits === DECLINED_TEST_CARD ? 'declined' : 'not_a_test_card';
}

/**
 * The card's fingerprint as Stripe gives one: the same card number gives the same 16 characters for every
 * customer of one account (here: one stack, keyed by `accountSecret`), and another account cannot link it.
 * The one-trial-per-card rule compares these.
 */
export function testCardFingerprint(input: string, accountSecret: string): string {
  return createHmac('sha256', accountSecret)
    .update(`vigil-local-card-fingerprint:${digitsOf(input)}`)
    .digest('base64url')
    .slice(0, 16);
}

/** Compares tokens in constant time (no timing oracle on the CSRF token). */
export function isTimingSafeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
