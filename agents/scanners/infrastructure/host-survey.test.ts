import { describe, expect, it } from 'vitest';

import { byPriority, describePlaces, planSurvey, portsToLookAt, spreadPick } from './host-survey.ts';
import type { FirstAnswer } from './quick-look.ts';

const answers = (ports: number[], signature: string): FirstAnswer[] =>
  ports.map((port) => ({ port, signature, summary: signature }));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('host survey', () => {
  it('orders well-known service ports first, then the rest ascending', () => {
    expect(byPriority([9999, 443, 7, 22, 80, 1])).toEqual([22, 80, 443, 1, 7, 9999]);
  });

  it('picks well-known ports, then spreads the pick evenly over the others', () => {
    expect(spreadPick([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(spreadPick([...range(1000, 1099), 22, 80], 6)).toEqual([22, 80, 1000, 1025, 1050, 1075]);
    expect(portsToLookAt(range(1, 65535), { lookedAt: 1024 })).toHaveLength(1024);
  });

  it('groups ports that answered alike, from the threshold on, each with a sample led by its lowest port', () => {
    const looks = [
      ...answers(range(1100, 1139), 'silent'),
      ...answers([22], 'greeting ssh'),
      ...answers([8000, 8001, 8002], 'http same app'),
    ];
    const plan = planSurvey([...range(1100, 1139), 22, 8000, 8001, 8002, 9000], looks, {
      alikeFrom: 32,
      sample: 8,
    });
    expect(plan.groups).toHaveLength(1);
    expect(plan.groups[0]!.ports).toEqual(range(1100, 1139));
    expect(plan.groups[0]!.sample).toEqual([1100, 1101, 1106, 1112, 1117, 1123, 1128, 1134]);
    // Fewer alike than the threshold: each examined on its own.
    expect(plan.individual).toEqual([22, 8000, 8001, 8002]);
    expect(plan.unlooked).toEqual([9000]);
  });

  it('names places as ranges, at most so many, counting the rest', () => {
    expect(describePlaces([5, 1, 2, 3, 7, 8], 10)).toBe('1-3, 5, 7-8');
    expect(describePlaces([1, 3, 5, 7, 9], 2)).toBe('1, 3 (+3 more ports)');
    expect(describePlaces(range(1, 65535), 2)).toBe('1-65535');
  });
});
