// Counts the connections a host's service detection opens against that host's budget (host-budget.ts).
// The budget follows the work through every await (AsyncLocalStorage), so each conversation asks before it
// connects without every check having to carry the budget along.
import { AsyncLocalStorage } from 'node:async_hooks';

const meter = new AsyncLocalStorage<() => boolean>();

/** Runs `work` with every connection it opens counted by `take` (false: none left). */
export function withConnectionMeter<T>(take: () => boolean, work: () => Promise<T>): Promise<T> {
  return meter.run(take, work);
}

/** Takes one connection from the current host's budget; false when it is spent (open none then). */
export function mayConnect(): boolean {
  return meter.getStore()?.() ?? true;
}
