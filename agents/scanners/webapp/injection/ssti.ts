// Server-side template injection: a product of two random numbers written in a template language's
// expression syntax comes back computed. Arithmetic only: nothing runs on the server but the template
// engine's own multiplication. Confirmed with fresh numbers, and the same numbers without the template
// syntax must not come back computed (a calculator is not a template engine).
import { randomInt } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import type { ParamProbe } from './param-probe.ts';

interface Syntax {
  engines: string;
  wrap: (expression: string) => string;
}

/** Two syntaxes per request that no engine of the other kind reads (a stray one is plain text). */
const requests: Syntax[][] = [
  [
    { engines: 'Jinja2, Twig, Nunjucks, Pebble (the {{ }} family)', wrap: (e) => `{{${e}}}` },
    { engines: 'FreeMarker, Mako, JSP EL, Groovy (the ${ } family)', wrap: (e) => `\${${e}}` },
  ],
  [
    { engines: 'ERB, EJS (the <%= %> family)', wrap: (e) => `<%= ${e} %>` },
    { engines: 'Ruby interpolation, Pug, Slim (the #{ } family)', wrap: (e) => `#{${e}}` },
  ],
];

const factors = (): [number, number] => [randomInt(1000, 10000), randomInt(1000, 10000)];

async function computes(probe: ParamProbe, syntax: Syntax): Promise<string | null> {
  const [a, b] = factors();
  const response = await probe.request(`${probe.original}${syntax.wrap(`${a}*${b}`)}`);
  return response?.body.includes(String(a * b)) ? `${syntax.wrap(`${a}*${b}`)} → ${a * b}` : null;
}

export async function templateInjection(probe: ParamProbe): Promise<Finding | null> {
  const original = await probe.originalOnce();
  if (!original) {
    return null;
  }
  const sent = requests.map((syntaxes) => {
    const numbers = syntaxes.map(factors);
    const value =
      probe.original +
      syntaxes.map((syntax, i) => syntax.wrap(`${numbers[i]![0]}*${numbers[i]![1]}`)).join('');
    return { syntaxes, numbers, value };
  });
  const answers = await Promise.all(sent.map(({ value }) => probe.request(value)));
  for (const [n, { syntaxes, numbers }] of sent.entries()) {
    for (const [i, syntax] of syntaxes.entries()) {
      const [a, b] = numbers[i]!;
      const product = String(a * b);
      if (!answers[n]?.body.includes(product) || original.body.includes(product)) {
        continue;
      }
      const [c, d] = factors();
      const [again, bare] = await Promise.all([
        computes(probe, syntax),
        probe.request(`${probe.original} ${c}*${d}`),
      ]);
      if (again && bare && !bare.body.includes(String(c * d))) {
        return webappFinding('web.ssti', {
          location: probe.location,
          evidence: `${probe.param}=${syntax.wrap(`${a}*${b}`)} came back as ${product}, and ${again}; ${c}*${d} without template syntax stayed as written. Engines that read it: ${syntax.engines}`,
        });
      }
    }
  }
  return null;
}
