import { randomUUID } from 'node:crypto';
import type { RunningStack } from '../../server/stack.ts';

/** A confirmed user created directly in the database, and an access token for it minted by the stack's key. */
export async function benchUser(stack: RunningStack): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  await stack.ctx.db.query(
    `insert into auth.users (id, email, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, now(), '{"full_name":"Bench","company_name":"Bench Co","industry_type":"Technology"}')`,
    [id, `bench-${id}@example.com`],
  );
  const token = await stack.ctx.keys.sign(
    { sub: id, role: 'authenticated', aud: 'authenticated', session_id: randomUUID(), aal: 'aal1', amr: [] },
    3600,
  );
  return { id, token };
}

export async function timeLoop(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}
