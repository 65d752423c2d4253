// Shared by the automatic-remediation suites: a customer with a verified target on a real loopback web
// server, scans of it through the queue (enqueue_scan, as the edge function does) run by an in-process
// agent, and the rows the tests look at.
import { createServiceClient, type ServiceClient } from '../../agents/queue/client.ts';
import type { RunningStack } from '../../server/stack.ts';
import {
  customer,
  target,
  targetServer,
  waitFor,
  type Customer,
  type TargetServer,
} from './queue-support.ts';

export interface Owner {
  who: Customer;
  srv: TargetServer;
  targetId: string;
}

export async function owner(stack: RunningStack, automaticRemediation: boolean): Promise<Owner> {
  const who = await customer(stack);
  const srv = await targetServer();
  const t = await target(stack, who.id, srv.url);
  const { error } = await who.supabase
    .from('user_settings')
    .update({ automatic_remediation: automaticRemediation })
    .eq('user_id', who.id);
  if (error) {
    throw error;
  }
  return { who, srv, targetId: t.id };
}

export const serviceDb = (stack: RunningStack): ServiceClient =>
  createServiceClient(stack.url, stack.status.service_role_key);

/** The job finished (scan row written, then recommendations and notifications): nothing more will change. */
export async function jobDone(db: ServiceClient, jobId: string): Promise<void> {
  await waitFor(
    `job ${jobId} finished`,
    async () => {
      const { data } = await db.from('jobs').select('status, last_error').eq('id', jobId).single();
      if (data?.status === 'failed' || data?.status === 'dead') {
        throw new Error(`job ${jobId} ${data.status}: ${data.last_error}`);
      }
      return data?.status === 'succeeded';
    },
    60_000,
    150,
  );
}

/** A manual scan of the owner's target, to the end; returns its scan_results row. */
export async function scanToEnd(db: ServiceClient, o: Owner) {
  const { data: jobId, error } = await db.rpc('enqueue_scan', {
    p_user: o.who.id,
    p_tool: 'webapp',
    p_target_id: o.targetId,
    p_scanner: 'webapp',
  });
  if (error) {
    throw error;
  }
  await jobDone(db, jobId);
  const { data: scan } = await db.from('scan_results').select('*').eq('job_id', jobId).single();
  return scan!;
}

export async function eventsOf(o: Owner) {
  const { data, error } = await o.who.supabase
    .from('security_events')
    .select('id, status, resolved_at, resolved_by, resolution, finding_id, event_type, details')
    .order('created_at');
  if (error) {
    throw error;
  }
  return data;
}

export async function recommendationOf(o: Owner, category: string) {
  const { data, error } = await o.who.supabase
    .from('ai_security_recommendations')
    .select('*')
    .eq('category', category)
    .order('created_at', { ascending: false })
    .limit(1)
    .single();
  if (error) {
    throw error;
  }
  return data;
}

export async function findingByRule(o: Owner, ruleId: string) {
  const { data, error } = await o.who.supabase.from('findings').select('*').eq('rule_id', ruleId).single();
  if (error) {
    throw error;
  }
  return data;
}

/** Verification scans the agents queued for this owner. */
export async function verificationJobs(db: ServiceClient, userId: string) {
  const { data, error } = await db
    .from('jobs')
    .select('id, status, payload')
    .eq('user_id', userId)
    .eq('kind', 'scan')
    .eq('payload->>trigger', 'verification');
  if (error) {
    throw error;
  }
  return data;
}
