// Error identity and severity (docs/product.md §8): IDs err_{time}_{random}; severity from the message's wording.

export type ErrorSeverity = 'critical' | 'high' | 'medium' | 'low';

/** A unique, log-friendly id such as err_1736000000000_k3j9x2a1q. */
export function createErrorId(now: number = Date.now(), random: () => number = Math.random): string {
  const suffix = random().toString(36).slice(2, 11).padEnd(9, '0');
  return `err_${now}_${suffix}`;
}

const CRITICAL = /security|authentication|authorization|token|permission/i;
const HIGH = /network|connection|timeout/i;

export function classifySeverity(error: { name?: string; message?: string }): ErrorSeverity {
  const message = error.message ?? '';
  if (CRITICAL.test(message)) {
    return 'critical';
  }
  if (HIGH.test(message)) {
    return 'high';
  }
  if (
    error.name === 'TypeError' ||
    error.name === 'SyntaxError' ||
    /type ?error|syntax ?error/i.test(message)
  ) {
    return 'medium';
  }
  return 'low';
}
