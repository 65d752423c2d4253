import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';

import { bcryptCompare, bcryptHash } from './password-pool.ts';

describe('the password pool', () => {
  it('hashes and checks passwords as bcryptjs does, compatible with stored hashes', async () => {
    const hash = await bcryptHash('correct-horse-1', 4);
    expect(hash).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcryptCompare('correct-horse-1', hash)).toBe(true);
    expect(await bcryptCompare('wrong-horse-1', hash)).toBe(false);
    // A hash made on the main thread before (every stored password) still matches.
    const stored = bcrypt.hashSync('stored-secret', 4);
    expect(await bcryptCompare('stored-secret', stored)).toBe(true);
  });

  it('keeps the main thread idle while bcrypt works (cost 10, ~90 ms each)', async () => {
    const hash = await bcryptHash('correct-horse-1', 10);
    const before = performance.eventLoopUtilization();
    await Promise.all(Array.from({ length: 8 }, () => bcryptCompare('wrong-horse-1', hash)));
    const busy = performance.eventLoopUtilization(before).utilization;
    // On the main thread this would be close to 1 (the loop busy for the whole time).
    expect(busy).toBeLessThan(0.5);
  });

  it('answers false for a malformed stored hash (no exception, no crash)', async () => {
    await expect(bcryptCompare('x', 'not-a-bcrypt-hash')).resolves.toBe(false);
  });
});
