// The connection gate that keeps one endpoint's probes under a few open connections at once.
import { describe, expect, it } from 'vitest';

import { connectionGate } from './tls-probe.ts';

describe('connectionGate', () => {
  it('never lets more than its slots run at once, and runs every piece of work once', async () => {
    const gate = connectionGate(3);
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gate(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 1 + (i % 4)));
          running--;
          done.push(i);
        }),
      ),
    );
    expect(most).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('frees the slot of work that fails', async () => {
    const gate = connectionGate(1);
    await expect(gate(() => Promise.reject(new Error('reset')))).rejects.toThrow('reset');
    await expect(gate(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
