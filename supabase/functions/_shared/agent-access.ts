import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { HttpError } from './http.ts';
import { scannerTargetKinds, toolScanner, toolTypes, type ToolType } from './scanner-tools.ts';

/** Where a customer activates agents (the error's details name it for clients that link to it). */
export const ACTIVATE_PATH = '/dashboard/agents';

/** The 402 a customer without the agent for a scan gets: the database's words, and where to activate. */
export class AgentRequiredError extends HttpError {
  constructor(message: string, scanType: ToolType | null) {
    super(402, message, { code: 'agent_required', scanType, activate: ACTIVATE_PATH });
  }
}

/**
 * Refuses (402) unless the customer has an active or trialing agent covering `scanType` (null: any
 * agent). The rule and its message live in the database (public.require_agent, migration
 * 20261124100000), which also guards every job insert; this only answers before any work starts.
 */
export async function requireAgent(
  admin: SupabaseClient,
  userId: string,
  scanType: ToolType | null,
): Promise<void> {
  const { error } = await admin.rpc('require_agent', { p_user: userId, p_scan_type: scanType });
  if (!error) {
    return;
  }
  if (error.code === 'PT402') {
    throw new AgentRequiredError(error.message, scanType);
  }
  throw new Error(`require_agent failed: ${error.message}`);
}

/** public.agent_coverage's rows: per scan type, whether the customer's agents cover it. */
const Coverage = z.array(z.object({ scan_type: z.enum(toolTypes), covered: z.boolean() }).loose());

/**
 * The scan type a target verification is for: `requested` when the customer's agents cover it, else
 * another covered scan type whose scanner takes this kind of target (a Cloud Security customer verifies a
 * URL for the infrastructure scanner). Refuses with the requested type's 402 when none is covered.
 */
export async function verificationScanType(
  admin: SupabaseClient,
  userId: string,
  requested: ToolType,
  targetKind: 'url' | 'host' | 'api',
): Promise<ToolType> {
  const coverage: { data: unknown; error: { message: string } | null } = await admin.rpc('agent_coverage', {
    p_user: userId,
  });
  const { data, error } = coverage;
  if (error) {
    throw new Error(`agent_coverage failed: ${error.message}`);
  }
  const covered = new Set(
    Coverage.parse(data)
      .filter((r) => r.covered)
      .map((r) => r.scan_type),
  );
  const fits = (tool: ToolType) => {
    const scanner = toolScanner[tool];
    return scanner !== null && scannerTargetKinds[scanner].includes(targetKind);
  };
  const choice = [requested, ...toolTypes].find((tool) => fits(tool) && covered.has(tool));
  if (choice) {
    return choice;
  }
  await requireAgent(admin, userId, requested);
  // Covered after all (an agent was activated between the two reads): the requested type it is.
  return requested;
}
