import type { SupabaseClient, User } from '@supabase/supabase-js';
import { AgentRequiredError, requireAgent, verificationScanType } from './agent-access.ts';
import { needsSignIn, requireUser } from './clients.ts';
import { HttpError } from './http.ts';
import {
  connectorNeeds,
  scannerTargetKinds,
  toolScanner,
  type ScannerName,
  type ToolType,
} from './scanner-tools.ts';

/** The message of docs/product.md §5 for tool actions without a session. */
export const LOGIN_REQUIRED = 'You must be logged in to use security tools';
export const NOT_INITIALIZED = 'Scanner is not initialized. Please initialize it first.';

/** The signed-in caller of a tool action; anything else is 401 with the message of docs/product.md §5. */
export async function requireUserForTools(req: Request): Promise<{ user: User; admin: SupabaseClient }> {
  try {
    const { user, clients } = await requireUser(req);
    return { user, admin: clients.admin };
  } catch (e) {
    if (needsSignIn(e)) {
      throw new HttpError(401, LOGIN_REQUIRED);
    }
    throw e;
  }
}

export interface ActionResult {
  success: true;
  message: string;
  [key: string]: unknown;
}

interface TargetRow {
  id: string;
  kind: 'url' | 'host' | 'api';
  value: string;
  verified_at: string | null;
  verification_error: string | null;
}

/** Connector tools run only with the customer's own provider credentials, which are not connected. */
export function scannerFor(tool: ToolType): ScannerName {
  const scanner = toolScanner[tool];
  if (!scanner) {
    throw new HttpError(422, connectorNeeds[tool] ?? 'This tool needs credentials that are not connected.');
  }
  return scanner;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the caller's own targets, by id or by value. Another customer's target is simply not found. */
export async function findTarget(admin: SupabaseClient, userId: string, ref: string): Promise<TargetRow> {
  const query = admin
    .from('scan_targets')
    .select('id, kind, value, verified_at, verification_error')
    .eq('user_id', userId);
  const { data, error } = await (
    UUID.test(ref) ? query.eq('id', ref) : query.eq('value', ref)
  ).maybeSingle<TargetRow>();
  if (error) {
    throw new Error(`reading scan_targets failed: ${error.message}`);
  }
  if (!data) {
    throw new HttpError(404, 'No such scan target. Add it under your targets first.');
  }
  return data;
}

/** start_scan (docs/product.md §7.4) names no target: the caller's one verified target of a fitting kind, if there is exactly one. */
async function onlyVerifiedTarget(
  admin: SupabaseClient,
  userId: string,
  kinds: readonly string[],
): Promise<TargetRow> {
  const { data, error } = await admin
    .from('scan_targets')
    .select('id, kind, value, verified_at, verification_error')
    .eq('user_id', userId)
    .in('kind', [...kinds])
    .not('verified_at', 'is', null)
    .limit(2);
  if (error) {
    throw new Error(`reading scan_targets failed: ${error.message}`);
  }
  if (data.length !== 1) {
    throw new HttpError(
      400,
      data.length
        ? 'You have several verified targets: choose the one to scan.'
        : 'Add and verify a target to scan first.',
    );
  }
  return data[0] as TargetRow;
}

export async function initialize(
  admin: SupabaseClient,
  userId: string,
  tool: ToolType,
): Promise<ActionResult> {
  scannerFor(tool);
  // Guard: a scanner is set up (and then scanned every 24 hours) only for a customer with its agent.
  await requireAgent(admin, userId, tool);
  const { error } = await admin
    .from('security_tool_configurations')
    .upsert(
      { user_id: userId, tool_type: tool, enabled: true, connection_status: 'connected' },
      { onConflict: 'user_id,tool_type' },
    );
  if (error) {
    throw new Error(`saving the tool configuration failed: ${error.message}`);
  }
  return { success: true, message: 'Scanner initialized' };
}

export async function startScan(
  admin: SupabaseClient,
  userId: string,
  tool: ToolType,
  targetRef: string | undefined,
  options: { ports?: string },
): Promise<ActionResult> {
  const scanner = scannerFor(tool);
  // Guard: scans are for customers with an active or trialing agent covering this scan type.
  await requireAgent(admin, userId, tool);
  const { data: config, error } = await admin
    .from('security_tool_configurations')
    .select('id, enabled, connection_status, settings')
    .eq('user_id', userId)
    .eq('tool_type', tool)
    .maybeSingle<{
      id: string;
      enabled: boolean;
      connection_status: string;
      settings: Record<string, unknown>;
    }>();
  if (error) {
    throw new Error(`reading the tool configuration failed: ${error.message}`);
  }
  // Guard: docs/product.md §5, a scanner is initialised before it scans.
  if (!config || !config.enabled || config.connection_status !== 'connected') {
    throw new HttpError(409, NOT_INITIALIZED);
  }
  const ref =
    targetRef ?? (typeof config.settings.target_id === 'string' ? config.settings.target_id : undefined);
  const target = ref
    ? await findTarget(admin, userId, ref)
    : await onlyVerifiedTarget(admin, userId, scannerTargetKinds[scanner]);
  // Guard: only targets proven to be the caller's are scanned.
  if (!target.verified_at) {
    throw new HttpError(
      403,
      'This target is not verified yet. Serve the verification token at /.well-known/vigil-verification.txt (or add the DNS TXT record) and verify it first.',
    );
  }
  if (!scannerTargetKinds[scanner].includes(target.kind)) {
    throw new HttpError(
      400,
      `A ${tool} scan needs a ${scannerTargetKinds[scanner].join(' or ')} target, not a ${target.kind} target.`,
    );
  }
  const { data: jobId, error: enqueueError } = (await admin.rpc('enqueue_scan', {
    p_user: userId,
    p_tool: tool,
    p_target_id: target.id,
    p_scanner: scanner,
    p_options: options.ports ? { ports: options.ports } : {},
    p_trigger: 'manual',
  })) as { data: string | null; error: { code?: string; message: string } | null };
  if (enqueueError) {
    if (enqueueError.code === 'PT402') {
      throw new AgentRequiredError(enqueueError.message, tool);
    }
    if (enqueueError.code === '23505') {
      throw new HttpError(409, 'A scan of this type is already running. Stop it or wait for it to finish.');
    }
    throw new Error(`enqueue_scan failed: ${enqueueError.message}`);
  }
  // The automatic 24-hour scans use the target (and ports) of the last manual scan.
  const settings = {
    ...config.settings,
    target_id: target.id,
    ...(options.ports ? { ports: options.ports } : {}),
  };
  await admin.from('security_tool_configurations').update({ settings }).eq('id', config.id);
  const { data: scan } = await admin
    .from('scan_results')
    .select('id')
    .eq('job_id', jobId ?? '')
    .maybeSingle<{ id: string }>();
  return { success: true, message: 'Scan started', scanId: scan?.id ?? null, jobId };
}

export async function stopScan(admin: SupabaseClient, userId: string, tool: ToolType): Promise<ActionResult> {
  const { data: scans, error } = await admin
    .from('scan_results')
    .select('id, job_id')
    .eq('user_id', userId)
    .eq('scan_type', tool)
    .in('status', ['queued', 'in_progress']);
  if (error) {
    throw new Error(`reading scans failed: ${error.message}`);
  }
  if (!scans.length) {
    throw new HttpError(409, 'No scan of this type is running.');
  }
  for (const scan of scans as { id: string; job_id: string | null }[]) {
    if (scan.job_id) {
      const { error: cancelError } = await admin.rpc('cancel_job', { p_job: scan.job_id });
      if (cancelError) {
        throw new Error(`cancel_job failed: ${cancelError.message}`);
      }
    } else {
      await admin
        .from('scan_results')
        .update({ status: 'stopped', end_time: new Date().toISOString() })
        .eq('id', scan.id);
    }
  }
  return { success: true, message: 'Scan stopped' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Queues an ownership check for the agents and waits a little for its answer. Only for a customer whose
 * agents could scan the target (the job names the scan type it is for; the database checks it again).
 */
export async function verifyTarget(
  admin: SupabaseClient,
  userId: string,
  ref: string,
  tool: ToolType,
  waitMs = 15_000,
): Promise<ActionResult> {
  const target = await findTarget(admin, userId, ref);
  if (target.verified_at) {
    return { success: true, message: 'Target verified', verified: true, targetId: target.id };
  }
  const scanType = await verificationScanType(admin, userId, tool, target.kind);
  const { data: job, error } = await admin
    .from('jobs')
    .insert({
      kind: 'verify',
      user_id: userId,
      payload: { target_id: target.id, tool_type: scanType },
      priority: 20,
      max_attempts: 1,
    })
    .select('id')
    .single<{ id: string }>();
  if (error) {
    // The agent lapsed between the check and the insert: the database's refusal, as the 402 it is.
    if (error.code === 'PT402') {
      throw new AgentRequiredError(error.message, scanType);
    }
    throw new Error(`queueing the verification failed: ${error.message}`);
  }
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await sleep(250);
    const { data } = await admin.from('jobs').select('status, result, last_error').eq('id', job.id).single<{
      status: string;
      result: { verified?: boolean; reason?: string } | null;
      last_error: string | null;
    }>();
    if (data?.status === 'succeeded') {
      if (data.result?.verified) {
        return { success: true, message: 'Target verified', verified: true, targetId: target.id };
      }
      throw new HttpError(422, data.result?.reason ?? 'Ownership not proven.');
    }
    if (data && ['failed', 'dead', 'cancelled'].includes(data.status)) {
      throw new HttpError(422, `Verification failed: ${data.last_error ?? data.status}`);
    }
  }
  return {
    success: true,
    message: 'Verification queued; check the target again shortly',
    verified: false,
    pending: true,
    jobId: job.id,
  };
}
