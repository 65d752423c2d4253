import { passwordPoolMemory } from './auth/password-pool.ts';
import type { StackContext } from './context.ts';
import { isolateMemory, type IsolateMemory } from './isolate-memory.ts';

/** What `/_stack/memory` answers: the stack process's resident memory and each of its V8 isolates. */
export interface StackMemory {
  pid: number;
  rss_mb: number;
  isolates: IsolateMemory[];
}

export async function stackMemory(ctx: StackContext): Promise<StackMemory> {
  const [engine, hashing] = await Promise.all([ctx.db.memory?.() ?? [], passwordPoolMemory()]);
  return {
    pid: process.pid,
    rss_mb: Math.round(process.memoryUsage.rss() / 104857.6) / 10,
    isolates: [isolateMemory('stack'), ...engine, ...hashing],
  };
}
