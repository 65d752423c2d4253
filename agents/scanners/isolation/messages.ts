// What the scan process (scan-child.ts) and its parent (scan-process.ts) say to each other over Node's
// IPC channel.
import type { Finding, ScanType } from '../../../shared/findings.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { ScanResult } from '../core/context.ts';
import type { ScanProgress } from '../core/progress.ts';
import type { ScanStop } from '../core/scan-stopped.ts';
import type { ScanMode } from '../target-policy.ts';

/** The options of a scan that can cross a process boundary (no callbacks, no signal). */
export interface PortableScanOptions {
  target: string;
  mode: ScanMode;
  ports?: string;
  openapi?: string;
  rateLimit?: number;
  login?: TargetLogin;
  /** The target's owner allows intrusive checks (ScanOptions.allowIntrusive). */
  allowIntrusive: boolean;
  /** false: the HTML crawl only; absent: a system Chromium when one is installed. */
  render?: false;
  timeLimitMs: number;
}

export type ToChild =
  { type: 'start'; scanType: ScanType; options: PortableScanOptions } | { type: 'stop'; stop: ScanStop };

export type FromChild =
  | { type: 'progress'; progress: ScanProgress }
  | { type: 'finding'; finding: Finding }
  | { type: 'warning'; message: string }
  /** The scan heard a stop: it starts no new request, and hands back what it found. */
  | { type: 'stopping'; reason: string }
  /** `peakRssMb`: the scan process's own peak resident memory (its children not included). */
  | { type: 'result'; result: ScanResult; peakRssMb: number }
  | { type: 'error'; name: string; message: string; target?: string; reason?: string };
