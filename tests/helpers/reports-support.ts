// Shared by the report integration tests: seeded findings and a worker that runs report jobs only.
import type { SupabaseClient } from '@supabase/supabase-js';
import { createServiceClient } from '../../agents/queue/client.ts';
import { runReportJob } from '../../agents/reports/generate.ts';
import { Worker } from '../../agents/worker/worker.ts';
import type { RunningStack } from '../../server/stack.ts';
import type { Database } from '../../shared/database.types.ts';
import type { TestUser } from './users.ts';

/** The signed-in user's client, typed with the generated Database. */
export const typed = (user: TestUser) => user.supabase as unknown as SupabaseClient<Database>;

export const service = (stack: RunningStack) => createServiceClient(stack.url, stack.status.service_role_key);

export const reportWorker = (stack: RunningStack, id?: string) =>
  new Worker({
    db: service(stack),
    mode: 'local',
    handlers: { report: runReportJob },
    pollMs: 50,
    heartbeatMs: 500,
    log: () => {},
    ...(id ? { id } : {}),
  });

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** Inserts `n` open findings for the user (severity cycling critical → info), first seen two days ago. */
export async function seedFindings(
  stack: RunningStack,
  userId: string,
  n: number,
  prefix = 'Seeded finding',
): Promise<void> {
  await stack.ctx.db.query(
    `insert into public.findings (user_id, scanner, fingerprint, rule_id, title, severity, cwe, location, evidence, remediation, compliance, first_seen)
     select $1, 'webapp', md5($2 || g::text) || md5(g::text), 'rule-' || (g % 7), $2 || ' ' || g,
            ($3::text[])[1 + (g % 5)], 'CWE-319', 'https://app.example.com/p/' || g, 'evidence for ' || g,
            'fix number ' || g, '[{"framework":"HIPAA","control":"164.312(e)(1)"}]'::jsonb, now() - interval '2 days'
     from generate_series(1, $4::int) g`,
    [userId, prefix, SEVERITIES, n],
  );
}

export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) {
      return value;
    }
    if (Date.now() > until) {
      throw new Error('timed out waiting');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
