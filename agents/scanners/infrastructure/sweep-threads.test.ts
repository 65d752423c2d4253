import { describe, expect, it } from 'vitest';

import { sharedSource, sharePorts } from './sweep-threads.ts';

describe('shared port list', () => {
  it('hands each port to exactly one reader, in order, then nothing', () => {
    const shared = sharePorts([22, 80, 443, 8080, 65535]);
    const a = sharedSource(shared);
    const b = sharedSource(shared);
    const taken = [a.next(), b.next(), b.next(), a.next(), b.next()];
    expect(taken).toEqual([22, 80, 443, 8080, 65535]);
    expect([a.next(), b.next(), a.next()]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses what is not a TCP port rather than wrapping it', () => {
    for (const bad of [0, 65536, -1, 80.5, Number.NaN]) {
      expect(() => sharePorts([22, bad])).toThrow(RangeError);
    }
  });
});
