import { z } from 'zod';
import { parseBody } from '../_shared/body.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import {
  initialize,
  requireUserForTools,
  scannerFor,
  startScan,
  stopScan,
  verifyTarget,
} from '../_shared/scan-actions.ts';
import { toolTypes } from '../_shared/scanner-tools.ts';

const Body = z.object({
  userId: z.uuid(),
  toolType: z.enum(toolTypes),
  action: z.enum(['initialize', 'scan', 'start_scan', 'stop', 'stop_scan', 'status', 'verify_target']),
  target: z.string().trim().min(1).max(2048).optional(),
  options: z
    .object({
      ports: z
        .string()
        .regex(/^[0-9,\s-]{1,200}$/)
        .optional(),
    })
    .loose()
    .optional(),
});

/**
 * security-tool-orchestration (docs/product.md §7): one entry for every tool type, mapped to its engine —
 * webapp and api to the web-application / API scanners, infrastructure and siem to the network mapper,
 * cloud_security and threat_intel to connectors that need the customer's own credentials (without them
 * the answer says so and nothing runs). The caller acts only on their own tools: userId must be theirs.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const { user, admin } = await requireUserForTools(req);
  const body = await parseBody(req, Body);
  // Guard: a caller never acts for another customer, whatever the body claims.
  if (body.userId !== user.id) {
    throw new HttpError(403, 'You can only use your own security tools.');
  }
  const scanner = scannerFor(body.toolType);
  const extra = {
    toolType: body.toolType,
    engine: scanner === 'infrastructure' ? 'network-mapper' : `${scanner}-scanner`,
  };
  switch (body.action) {
    case 'initialize':
      return json({ ...(await initialize(admin, user.id, body.toolType)), ...extra });
    case 'scan':
    case 'start_scan':
      return json({
        ...(await startScan(admin, user.id, body.toolType, body.target, body.options ?? {})),
        ...extra,
      });
    case 'stop':
    case 'stop_scan':
      return json({ ...(await stopScan(admin, user.id, body.toolType)), ...extra });
    case 'verify_target':
      if (!body.target) {
        throw new HttpError(400, 'Name the target to verify.');
      }
      return json({ ...(await verifyTarget(admin, user.id, body.target, body.toolType)), ...extra });
    case 'status': {
      const { data, error } = await admin
        .from('scan_results')
        .select('id, status, severity_level, progress, start_time, end_time, analyzed_results')
        .eq('user_id', user.id)
        .eq('scan_type', body.toolType)
        .order('created_at', { ascending: false })
        .limit(1)
        .maybeSingle();
      if (error) {
        throw new Error(`reading scans failed: ${error.message}`);
      }
      return json({
        success: true,
        message: data ? `Latest scan is ${String(data.status)}` : 'No scans yet',
        scan: data,
        ...extra,
      });
    }
  }
});
