import { z } from 'zod';
import { parseBody } from '../_shared/body.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import {
  initialize,
  requireUserForTools,
  startScan,
  stopScan,
  verifyTarget,
} from '../_shared/scan-actions.ts';
import { toolTypes } from '../_shared/scanner-tools.ts';

const Body = z.object({
  action: z.enum(['initialize', 'start_scan', 'stop_scan', 'verify_target']),
  toolType: z.enum(toolTypes),
  /** A scan target of the caller: its id or its value (URL or host). */
  target: z.string().trim().min(1).max(2048).optional(),
  // docs/product.md §7 sends continuous: false; continuous scanning is the 24-hour schedule, not a flag.
  continuous: z.literal(false).optional(),
  ports: z
    .string()
    .regex(/^[0-9,\s-]{1,200}$/)
    .optional(),
});

/**
 * security-scanner-integration (docs/product.md §7): initialize a scanner, start or stop its scan, or verify
 * a target's ownership, for the signed-in caller only. Answers {success, message}; errors are 4xx with
 * {error} saying what to do.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const { user, admin } = await requireUserForTools(req);
  const body = await parseBody(req, Body);
  switch (body.action) {
    case 'initialize':
      return json(await initialize(admin, user.id, body.toolType));
    case 'start_scan':
      return json(await startScan(admin, user.id, body.toolType, body.target, { ports: body.ports }));
    case 'stop_scan':
      return json(await stopScan(admin, user.id, body.toolType));
    case 'verify_target':
      if (!body.target) {
        throw new HttpError(400, 'Name the target to verify.');
      }
      return json(await verifyTarget(admin, user.id, body.target, body.toolType));
  }
});
