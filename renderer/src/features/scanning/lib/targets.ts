// What a scanner card needs to know of the user's targets; the route passes them in from the targets feature.
import type { ScannerInfo, TargetKind } from './scanners.ts';

export interface ScanTargetOption {
  id: string;
  kind: TargetKind;
  value: string;
  verified: boolean;
}

/** The verified targets this scanner can scan. */
export function targetsFor(scanner: ScannerInfo, targets: readonly ScanTargetOption[]): ScanTargetOption[] {
  return targets.filter((t) => t.verified && scanner.targetKinds.includes(t.kind));
}
