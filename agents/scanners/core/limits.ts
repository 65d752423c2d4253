// The limits every scan of a type runs within, whoever starts it (the worker, `npm run scan`): its time,
// the memory of its processes (the scan's own and the browser's), and the longest any one phase may take
// of that time, so that one phase on a slow target cannot leave the others no time at all.
import type { ScanType } from '../../../shared/findings.ts';

export interface ScanLimits {
  /** Wall-clock time of the whole scan. */
  timeMs: number;
  /** Resident memory of the scan's process tree (the scan process, and Chromium for web scans). */
  memoryMb: number;
  /** V8 heap of the scan process itself. */
  heapMb: number;
}

const minute = 60_000;

export const defaultScanLimits: Record<ScanType, ScanLimits> = {
  webapp: { timeMs: 20 * minute, memoryMb: 2048, heapMb: 1024 },
  api: { timeMs: 10 * minute, memoryMb: 768, heapMb: 512 },
  infrastructure: { timeMs: 30 * minute, memoryMb: 768, heapMb: 512 },
};

/** The share of the scan's time one phase may use. */
export const PHASE_SHARE = 0.5;

/** The limits of a scan of `type`, with the configured overrides (settings, CLI) applied. */
export function scanLimits(
  type: ScanType,
  overrides: { timeMs?: number | undefined; memoryMb?: number | undefined } = {},
): ScanLimits {
  const base = defaultScanLimits[type];
  const memoryMb = overrides.memoryMb ?? base.memoryMb;
  return {
    timeMs: overrides.timeMs ?? base.timeMs,
    memoryMb,
    // The heap is part of the tree's memory: never more than its share of a lowered cap.
    heapMb: Math.max(128, Math.min(base.heapMb, Math.round(memoryMb / 2))),
  };
}

/** A limit as people read it: "800 ms", "45 s", "20 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) {
    return `${Math.round(ms)} ms`;
  }
  const seconds = Math.round(ms / 1000);
  return seconds >= 120 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
