// CVSS 3.1 base score from a vector string, per the FIRST specification (section 7 and appendix A).
import type { Severity } from '../../../shared/findings.ts';

const weights = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  CIA: { H: 0.56, L: 0.22, N: 0 },
} as const;

type Metrics = Record<'AV' | 'AC' | 'PR' | 'UI' | 'S' | 'C' | 'I' | 'A', string>;

function parse(vector: string): Metrics {
  const [head, ...parts] = vector.split('/');
  // Guard: only 3.1 base vectors are scored; anything else is a bug in a rule table.
  if (head !== 'CVSS:3.1') {
    throw new Error(`not a CVSS 3.1 vector: ${vector}`);
  }
  const metrics = Object.fromEntries(parts.map((part) => part.split(':') as [string, string]));
  for (const key of ['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A']) {
    if (!(key in metrics)) {
      throw new Error(`CVSS vector lacks ${key}: ${vector}`);
    }
  }
  return metrics as Metrics;
}

/** The specification's Roundup: the smallest one-decimal number >= x, robust to float error. */
function roundUp(x: number): number {
  const scaled = Math.round(x * 100_000);
  return scaled % 10_000 === 0 ? scaled / 100_000 : (Math.floor(scaled / 10_000) + 1) / 10;
}

function pick<T extends Record<string, number>>(table: T, key: string, vector: string): number {
  const value = table[key];
  if (value === undefined) {
    throw new Error(`bad CVSS metric value ${key} in ${vector}`);
  }
  return value;
}

export function cvssBaseScore(vector: string): number {
  const m = parse(vector);
  const changed = m.S === 'C';
  const pr = changed ? { N: 0.85, L: 0.68, H: 0.5 } : { N: 0.85, L: 0.62, H: 0.27 };
  const iss =
    1 -
    (1 - pick(weights.CIA, m.C, vector)) *
      (1 - pick(weights.CIA, m.I, vector)) *
      (1 - pick(weights.CIA, m.A, vector));
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * Math.pow(iss - 0.02, 15) : 6.42 * iss;
  const exploitability =
    8.22 *
    pick(weights.AV, m.AV, vector) *
    pick(weights.AC, m.AC, vector) *
    pick(pr, m.PR, vector) *
    pick(weights.UI, m.UI, vector);
  if (impact <= 0) {
    return 0;
  }
  return roundUp(Math.min((changed ? 1.08 : 1) * (impact + exploitability), 10));
}

/** CVSS 3.1 qualitative rating; a score of 0 ("None") is reported as informational. */
export function severityFromScore(score: number): Severity {
  if (score >= 9) {
    return 'critical';
  }
  if (score >= 7) {
    return 'high';
  }
  if (score >= 4) {
    return 'medium';
  }
  return score > 0 ? 'low' : 'info';
}
