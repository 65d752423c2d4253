import { protocol } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { bindMessage } from './pglite-statements.ts';

describe('bindMessage', () => {
  it.each([
    ['vigil_1', []],
    ['vigil_2', ['']],
    ['vigil_3', ['ab', null, 'é', '']],
    ['vigil_42', [null, null]],
    ['vigil_7', ['{"role":"anon","x":"\u{1F600}\u0000"}', 'x'.repeat(70_000), '0']],
  ] as const)('writes what PGlite writes for %s', (statement, values) => {
    const ours = Buffer.from(bindMessage(statement, values));
    const theirs = Buffer.from(protocol.serialize.bind({ statement, values: [...values] }));
    expect(ours.equals(theirs)).toBe(true);
  });
});
