// What a service check (checks.ts and the per-protocol check files) is given about the port it talks to.
import type { Timing } from './identify.ts';

export interface CheckContext {
  address: string;
  host: string;
  port: number;
  location: string;
  timing: Timing;
  /** The scan's stop signal: a check ends its conversation at once. */
  signal?: AbortSignal;
}
