// How much longer a page's deadlines run on a loaded scanner host. A page's script, its navigation and
// its tab's close are given wall-clock deadlines, but on a host whose cores are all busy (other scans,
// other programs) Chromium gets a share of a core at best: a page that only fires requests then misses
// a 10 s deadline and is taken for one that never yields. The deadlines stretch with the host's load
// (runnable processes per core, over the last minute), up to `maxStretch`, so that only a page that
// really holds its renderer is cut. A quiet host keeps the deadlines as they are.
import os from 'node:os';

export const maxStretch = 4;

/** The factor for a load average on `cores` cores: 1 up to one runnable process per core, at most maxStretch. */
export function stretchFor(load: number, cores: number): number {
  const perCore = load / Math.max(1, cores);
  return Math.min(maxStretch, Math.max(1, Math.round(perCore * 10) / 10));
}

/** The factor now, from this host's one-minute load average (1 where there is none: Windows). */
export const loadStretch = (): number => stretchFor(os.loadavg()[0] ?? 0, os.availableParallelism());

/** `ms` stretched by `factor`, and the words a cut gives for it. */
export function stretched(ms: number, factor: number): { ms: number; words: string } {
  const total = Math.round(ms * factor);
  return {
    ms: total,
    words: factor > 1 ? `${ms} ms (${total} ms on this host, ${factor}× for its load)` : `${ms} ms`,
  };
}
