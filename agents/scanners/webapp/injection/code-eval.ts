// Server-side code injection: the parameter is run as code (JavaScript's eval, Function or vm module, an
// expression library whose sandbox lets code out, Python's eval). Each payload joins the product of two
// random numbers to a fact only that language's runtime knows: `typeof process` is "object" only in
// Node.js, and only Python formats `'%d-%s'` with the name of `()`'s class. A calculator that only multiplies, or a
// page that echoes what it was sent, cannot write the joined result; nothing runs on the server but
// arithmetic and a type lookup. Confirmed with fresh numbers, and the original answer must not hold it.
import { randomInt } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import type { ParamProbe } from './param-probe.ts';

interface CodePayload {
  /** What runs the value, for the evidence. */
  runs: string;
  /** The value to send for the product a*b. */
  build: (a: number, b: number) => string;
  /** What comes back when it ran: the product and the runtime's fact. */
  result: (product: number) => string;
}

const node = (a: number, b: number) => `${a}*${b}+'-'+typeof process`;

const payloads: CodePayload[] = [
  {
    runs: "Node.js (eval or Function: typeof process is 'object' only there)",
    build: node,
    result: (p) => `${p}-object`,
  },
  {
    runs: "Node.js, out of the vm module's context through its constructor (vm is not a security boundary)",
    build: (a, b) => `this.constructor.constructor("return ${node(a, b)}")()`,
    result: (p) => `${p}-object`,
  },
  {
    runs: 'Node.js, out of an expression library (math.js 3 before its fixes of 2017, 3.10.2 to 3.17.0, lets a function reach the Function constructor)',
    build: (a, b) => `cos.constructor("return ${node(a, b)}")()`,
    result: (p) => `${p}-object`,
  },
  {
    // No built-in named: it holds in an eval given no __builtins__ too.
    runs: 'Python (eval)',
    build: (a, b) => `'%d-%s'%(${a}*${b},().__class__.__name__)`,
    result: (p) => `${p}-tuple`,
  },
];

const factors = (): [number, number] => [randomInt(1000, 10000), randomInt(1000, 10000)];

/** What the check needs of a parameter under test. */
export type CodeProbe = Pick<ParamProbe, 'param' | 'location' | 'request' | 'originalOnce'>;

async function runs(probe: CodeProbe, payload: CodePayload): Promise<string | null> {
  const [a, b] = factors();
  const response = await probe.request(payload.build(a, b));
  return response?.body.includes(payload.result(a * b)) ? payload.build(a, b) : null;
}

export async function codeInjection(probe: CodeProbe): Promise<Finding | null> {
  const original = await probe.originalOnce();
  if (!original) {
    return null;
  }
  const sent = payloads.map((payload) => ({ payload, numbers: factors() }));
  const answers = await Promise.all(
    sent.map(({ payload, numbers: [a, b] }) => probe.request(payload.build(a, b))),
  );
  for (const [i, { payload, numbers }] of sent.entries()) {
    const [a, b] = numbers;
    const result = payload.result(a * b);
    if (!answers[i]?.body.includes(result) || original.body.includes(result)) {
      continue;
    }
    const again = await runs(probe, payload);
    if (again) {
      return webappFinding('web.code-injection', {
        location: probe.location,
        evidence: `${probe.param}=${payload.build(a, b)} came back as ${result}, and ${again} as well with fresh numbers: the value runs as code in ${payload.runs}`,
      });
    }
  }
  return null;
}
