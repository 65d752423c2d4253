// What every scanner receives and returns.
import type { Finding, ScanType } from '../../../shared/findings.ts';
import type { ScanMode, Resolver } from '../target-policy.ts';
import type { ProgressCallback } from './progress.ts';

export interface ScanOptions {
  target: string;
  mode: ScanMode;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Infrastructure: port list such as "22,80,8000-8100"; default the bundled top 1000. */
  ports?: string;
  /** API: where the OpenAPI document is; default discovery at well-known paths. */
  openapi?: string;
  /**
   * Web and API: requests per second the scan may send (the target's rate limit, shared by all of the
   * scan's concurrent requests); unlimited when absent.
   */
  rateLimit?: number;
  /** Test seam for DNS; production uses the system resolver. */
  resolver?: Resolver;
}

export interface ScanResult {
  target: string;
  type: ScanType;
  findings: Finding[];
  stats: { requests: number; duration_ms: number };
  /** True when the scan was stopped (abort) or hit its budget before every check ran. */
  partial: boolean;
}

/** Findings of one scan, one per rule and location. */
export class FindingSet {
  private readonly byKey = new Map<string, Finding>();

  add(finding: Finding): void {
    const key = `${finding.rule_id}\u0000${finding.location}`;
    if (!this.byKey.has(key)) {
      this.byKey.set(key, finding);
    }
  }

  has(ruleId: string, location?: string): boolean {
    return [...this.byKey.values()].some(
      (f) => f.rule_id === ruleId && (location === undefined || f.location === location),
    );
  }

  list(): Finding[] {
    return [...this.byKey.values()];
  }
}
