import { timingSafeEqual } from 'node:crypto';

/**
 * The local checkout takes Stripe's public test card numbers only, so a real card number typed here by
 * mistake is refused and never stored: 4242… succeeds, 4000 0000 0000 0002 is declined.
 */
export function testCardOutcome(input: string): 'succeeds' | 'declined' | 'not_a_test_card' {
  const digits = input.replace(/[\s-]/g, '');
  if (digits === '4242424242424242') {
    return 'succeeds';
  }
  return digits === '4000000000000002' ? 'declined' : 'not_a_test_card';
}

/** Compares tokens in constant time (no timing oracle on the CSRF token). */
export function isTimingSafeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
