// Scan targets as stored in public.scan_targets, and what each scanner is pointed at for one.
import { z } from 'zod';
import type { ScanType } from '../../shared/findings.ts';

export const targetKinds = ['url', 'host', 'api'] as const;
export type TargetKind = (typeof targetKinds)[number];

export const ScanTargetRow = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  kind: z.enum(targetKinds),
  value: z.string().min(1),
  openapi_url: z.string().nullable(),
  verification_token: z.string().min(32),
  verified_at: z.string().nullable(),
  /** Requests per second all scans of the target together may send. */
  rate_limit: z.number().int().min(1),
  /** Scans of the target that may run at once (claim_jobs holds further ones in the queue). */
  max_concurrent_scans: z.number().int().min(1),
  /** The owner allows intrusive checks on this target (off unless they turned it on). */
  allow_intrusive: z.boolean(),
});
export type ScanTargetRow = z.infer<typeof ScanTargetRow>;

export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/** The host name of a target: the URL's host for url/api targets, the value itself for host targets. */
export function targetHost(target: Pick<ScanTargetRow, 'kind' | 'value'>): string {
  return target.kind === 'host'
    ? target.value.replace(/^\[|\]$/g, '')
    : new URL(target.value).hostname.replace(/^\[|\]$/g, '');
}

/** Origins where the verification file may be served: the URL's origin, or http/https on a bare host. */
export function verificationOrigins(target: Pick<ScanTargetRow, 'kind' | 'value'>): string[] {
  if (target.kind !== 'host') {
    return [new URL(target.value).origin];
  }
  const host =
    target.value.includes(':') && !target.value.startsWith('[') ? `[${target.value}]` : target.value;
  return [`https://${host}`, `http://${host}`];
}

/** What the scanner of `scanner` receives for this target. */
export function scannerTarget(
  target: ScanTargetRow,
  scanner: ScanType,
): { target: string; openapi?: string } {
  if (scanner === 'infrastructure') {
    return { target: targetHost(target) };
  }
  // Guard: web and API scanners need a URL; a bare host is scanned as its http origin's site.
  const url = target.kind === 'host' ? verificationOrigins(target)[1]! : target.value;
  if (scanner === 'api' && target.openapi_url) {
    // Guard: the OpenAPI document must come from the verified origin, or it would point the scanner elsewhere.
    if (new URL(target.openapi_url).origin !== new URL(url).origin) {
      throw new TargetError("the OpenAPI document must be served from the target's own origin");
    }
    return { target: url, openapi: target.openapi_url };
  }
  return { target: url };
}

/**
 * Requests per second one scan of the target may send: its share of the target's rate limit, so that
 * `max_concurrent_scans` scans at once, on any workers, stay within `rate_limit` together.
 */
export function scanRateLimit(target: Pick<ScanTargetRow, 'rate_limit' | 'max_concurrent_scans'>): number {
  return target.rate_limit / target.max_concurrent_scans;
}
