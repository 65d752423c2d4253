import vm from 'node:vm';

import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import { codeInjection } from './code-eval.ts';
import type { CodeProbe } from './code-eval.ts';

/** A parameter `expr` whose page shows what `page(value)` makes of the value sent. */
function probeOf(page: (value: string) => string): CodeProbe & { sent: string[] } {
  const sent: string[] = [];
  const answer = (value: string): HttpResponse => ({
    url: 'http://127.0.0.1:9/calc',
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: `<p>${page(value)}</p>`,
    redirects: [],
  });
  return {
    param: 'expr',
    location: 'http://127.0.0.1:9/calc?expr=',
    sent,
    originalOnce: () => Promise.resolve(answer('12*3')),
    request: (value: string) => {
      sent.push(value);
      return Promise.resolve(answer(value));
    },
  };
}

/** What a page shows when the expression throws: its message, as many pages do. */
const shown = (run: () => unknown) => {
  try {
    return String(run());
  } catch (error) {
    return `Error: ${(error as Error).message}`;
  }
};

describe('the code injection check', () => {
  it("proves Node.js's eval and the vm module by what only Node.js computes", async () => {
    // The vulnerable page under test: input passed to (indirect) eval.
    const evaluated = await codeInjection(probeOf((value) => shown(() => (0, eval)(value))));
    expect(evaluated?.rule_id).toBe('web.code-injection');
    expect(evaluated?.evidence).toMatch(
      /^expr=\d+\*\d+\+'-'\+typeof process came back as \d+-object, and .* with fresh numbers: the value runs as code in Node\.js \(eval/,
    );
    const sandboxed = await codeInjection(
      probeOf((value) => shown(() => vm.runInNewContext(value, {}, { timeout: 100 }))),
    );
    expect(sandboxed?.evidence).toMatch(
      /this\.constructor\.constructor\(.*came back as \d+-object.*vm module/,
    );
  });

  it('stays silent on a calculator that multiplies, a page that echoes and a page that errs', async () => {
    const calculator = (value: string) =>
      value.replace(/(\d+)\*(\d+)/g, (_, a: string, b: string) => String(Number(a) * Number(b)));
    for (const page of [calculator, (value: string) => value, () => 'Error: bad expression']) {
      const probe = probeOf(page);
      expect(await codeInjection(probe)).toBeNull();
      // One request per payload: nothing was confirmed.
      expect(probe.sent).toHaveLength(4);
    }
  });
});
