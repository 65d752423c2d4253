import { describe, expect, it } from 'vitest';

import { TimingLane } from './lane.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('TimingLane', () => {
  it('keeps at most `width` shared requests in flight', async () => {
    const lane = new TimingLane(2);
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 7 }, () =>
        lane.shared(async () => {
          most = Math.max(most, ++inFlight);
          await tick();
          inFlight--;
        }),
      ),
    );
    expect(most).toBe(2);
  });

  it('runs an exclusive request alone, after those before it and before those after it', async () => {
    const lane = new TimingLane(4);
    const log: string[] = [];
    let inFlight = 0;
    const job = (name: string, exclusive: boolean) =>
      (exclusive ? lane.exclusive.bind(lane) : lane.shared.bind(lane))(async () => {
        inFlight++;
        log.push(`${name}:${inFlight}`);
        await tick();
        inFlight--;
      });
    await Promise.all([job('a', false), job('b', false), job('x', true), job('c', false), job('y', true)]);
    expect(log).toEqual(['a:1', 'b:2', 'x:1', 'c:1', 'y:1']);
  });

  it('releases the lane when the work throws', async () => {
    const lane = new TimingLane(1);
    await expect(lane.exclusive(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lane.shared(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
