import { describe, expect, it } from 'vitest';

import { findStackTrace } from './stack-trace.ts';

describe('findStackTrace', () => {
  it('finds a Ruby trace, and reads a body of one long word in linear time', () => {
    expect(findStackTrace("boom\n  /app/models/user.rb:12:in `save'")).toBe(
      "/app/models/user.rb:12:in `save'",
    );
    // A target's 2 MB answer of letters: a search starting again at every letter took hours on it.
    const started = Date.now();
    expect(findStackTrace(JSON.stringify({ data: 'x'.repeat(2_000_000) }))).toBeNull();
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
