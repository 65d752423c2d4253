// Boolean-based blind SQL injection: appending a true condition leaves the page as it was, a false one
// changes it. Only AND conditions are sent (an OR could widen an UPDATE or DELETE to every row). Before
// anything is reported the difference must repeat: three more rounds of original / true / false in a
// random order with fresh numbers, half of them as > comparisons, every true answer like the original and
// every false answer like the first false one. A page that changes by itself fails these rounds.
import { randomInt } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import type { Observation } from './compare.ts';
import type { ParamProbe } from './param-probe.ts';
import { shuffle } from './param-probe.ts';

interface Context {
  name: string;
  applies: (probe: ParamProbe) => boolean;
  /** The parameter's value with `left op right` appended as an SQL condition in this context. */
  build: (probe: ParamProbe, left: number, op: '=' | '>', right: number) => string;
}

const contexts: Context[] = [
  {
    name: 'numeric',
    applies: (p) => /^-?\d{1,9}$/.test(p.original),
    build: (p, l, op, r) => `${p.original} AND ${l}${op}${r}`,
  },
  {
    name: 'single-quoted string',
    applies: () => true,
    build: (p, l, op, r) => `${p.original}' AND '${l}'${op}'${r}`,
  },
  {
    name: 'double-quoted string',
    applies: () => true,
    build: (p, l, op, r) => `${p.original}" AND "${l}"${op}"${r}`,
  },
  {
    // LIKE '%…%' and other contexts where the closing quote is followed by more SQL.
    name: 'single-quoted string, rest of the query commented out',
    applies: () => true,
    build: (p, l, op, r) => `${p.original}' AND ${l}${op}${r}-- -`,
  },
];

const rounds = 3;
/** Two four-digit numbers, the first smaller: equal length keeps > the same for numbers and strings. */
const pair = (): [number, number] => {
  const a = randomInt(1000, 5000);
  return [a, a + randomInt(1, 4000)];
};
const size = (o: Observation) => `HTTP ${o.status}, ${o.text.length} bytes`;

async function confirmed(probe: ParamProbe, context: Context, falseAnswer: Observation): Promise<boolean> {
  const baseline = (await probe.baselineOnce())!;
  for (let round = 0; round < rounds; round++) {
    const [a, b] = pair();
    const comparison = round % 2 === 1;
    const checks = shuffle([
      { value: probe.original, truth: true },
      { value: comparison ? context.build(probe, b, '>', a) : context.build(probe, a, '=', a), truth: true },
      { value: comparison ? context.build(probe, a, '>', b) : context.build(probe, a, '=', b), truth: false },
    ]);
    for (const check of checks) {
      const seen = await probe.observe(check.value);
      const ok = seen
        ? check.truth
          ? baseline.same(seen)
          : baseline.differs(seen) && baseline.alike(seen, falseAnswer)
        : false;
      if (!ok) {
        return false;
      }
    }
  }
  return true;
}

export async function booleanSqlInjection(probe: ParamProbe): Promise<Finding | null> {
  const baseline = await probe.baselineOnce();
  if (!baseline || baseline.tooNoisy) {
    return null;
  }
  // The false conditions first, together: most contexts leave the page unchanged, and one request settles it.
  const candidates = contexts
    .filter((c) => c.applies(probe))
    .map((context) => {
      const [a, b] = pair();
      return { context, a, falseValue: context.build(probe, a, '=', b) };
    });
  const falseAnswers = await Promise.all(candidates.map((c) => probe.observe(c.falseValue)));
  for (const [i, { context, a, falseValue }] of candidates.entries()) {
    const falseAnswer = falseAnswers[i];
    if (!falseAnswer || !baseline.differs(falseAnswer)) {
      continue;
    }
    const trueValue = context.build(probe, a, '=', a);
    const trueAnswer = await probe.observe(trueValue);
    if (!trueAnswer || !baseline.same(trueAnswer) || !(await confirmed(probe, context, falseAnswer))) {
      continue;
    }
    return webappFinding('web.sqli.boolean', {
      location: probe.location,
      evidence: `${probe.param}=${trueValue} answered like ${probe.param}=${probe.original} (${size(trueAnswer)}); ${probe.param}=${falseValue} did not (${size(falseAnswer)}); the same in ${rounds} more rounds with fresh numbers and > comparisons (${context.name} context)`,
    });
  }
  return null;
}
