// OS command injection with harmless commands only: the shell computes $((a*b)) and echoes the product
// (the payload carries the two factors, never the product, so an echo of the payload proves nothing, and
// the bare a*b must not come back computed: a calculator is not a shell), or sleeps for the timing check
// when the output never reaches the page. Nothing is written or deleted.
import { randomInt } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import { delayEvidence, timedFinding } from './delay.ts';
import type { DelayPayload, TimedFinding } from './delay.ts';
import type { ParamProbe } from './param-probe.ts';

interface Separator {
  name: string;
  inject: (probe: ParamProbe, command: string) => string;
}

const separators: Separator[] = [
  { name: 'after ;', inject: (p, c) => `${p.original};${c}` },
  { name: 'on a new line', inject: (p, c) => `${p.original}\n${c}` },
  { name: "after closing '…'", inject: (p, c) => `${p.original}';${c};'` },
  { name: 'after closing "…"', inject: (p, c) => `${p.original}";${c};"` },
];

export const commandDelayPayloads: DelayPayload[] = [
  { label: 'sleep in $( ) (unquoted or "…")', build: (p, s) => `${p.original}$(sleep ${s})` },
  { label: "sleep after closing '…'", build: (p, s) => `${p.original}';sleep ${s};'` },
];

const factors = (): [number, number] => [randomInt(1000, 10000), randomInt(1000, 10000)];

async function echoes(
  probe: ParamProbe,
  separator: Separator,
): Promise<{ value: string; product: string } | null> {
  const [a, b] = factors();
  const value = separator.inject(probe, `echo $((${a}*${b}))`);
  const response = await probe.request(value);
  const product = String(a * b);
  return response?.body.includes(product) ? { value, product } : null;
}

/** The shell's output reaches the page: echo of a product the payload does not contain. */
export async function commandEcho(probe: ParamProbe): Promise<Finding | null> {
  const original = await probe.originalOnce();
  if (!original) {
    return null;
  }
  const screened = await Promise.all(separators.map((separator) => echoes(probe, separator)));
  for (const [i, separator] of separators.entries()) {
    const first = screened[i];
    if (!first || original.body.includes(first.product)) {
      continue;
    }
    const [c, d] = factors();
    const [again, bare] = await Promise.all([
      echoes(probe, separator),
      probe.request(`${probe.original} ${c}*${d}`),
    ]);
    if (again && bare && !bare.body.includes(String(c * d))) {
      return webappFinding('web.command-injection', {
        location: probe.location,
        evidence: `the shell ran echo ${separator.name}: ${probe.param}=${JSON.stringify(first.value)} printed ${first.product}, and fresh factors printed ${again.product}`,
      });
    }
  }
  return null;
}

/** The output never reaches the page: sleep, confirmed by the timing check. */
export async function commandDelay(probe: ParamProbe, fresh = false): Promise<TimedFinding> {
  return timedFinding(
    probe,
    'web.command-injection',
    await delayEvidence(probe, commandDelayPayloads, fresh),
  );
}
